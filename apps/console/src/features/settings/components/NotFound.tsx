import { Link } from 'react-router';

export function NotFound() {
  return (
    <div className="card" role="status">
      <p className="settings-empty">
        There is no such settings page. <Link to="/settings/members">See the members</Link>
      </p>
    </div>
  );
}
