/** What a member sees where only admins may look (the server answers them 403). */
export function AdminsOnly({ what }: { what: string }) {
  return (
    <div className="card" role="status">
      <p className="settings-empty">Only admins see {what}. Ask an admin of your organization.</p>
    </div>
  );
}
