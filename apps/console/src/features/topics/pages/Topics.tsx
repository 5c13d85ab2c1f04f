import { Route, Routes } from 'react-router';
import '../../../components/records.css';
import { TopicList } from './TopicList';
import { TopicDetail } from './TopicDetail';

/** Topics: the list (and a new one), and each topic's page with its subscribers. */
export default function Topics() {
  return (
    <Routes>
      <Route index element={<TopicList />} />
      <Route path=":topicKey" element={<TopicDetail />} />
    </Routes>
  );
}
