import { Route, Routes } from 'react-router';
import '../../../components/records.css';
import '../subscribers.css';
import { SubscriberList } from './SubscriberList';
import { NewSubscriber } from './NewSubscriber';
import { SubscriberDetail } from './SubscriberDetail';

/** Subscribers: the list, a new one, and each one's page (profile, channels, preferences, feed). */
export default function Subscribers() {
  return (
    <Routes>
      <Route index element={<SubscriberList />} />
      <Route path="new" element={<NewSubscriber />} />
      <Route path=":subscriberId" element={<SubscriberDetail />} />
    </Routes>
  );
}
