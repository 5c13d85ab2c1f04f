import { Link, useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ProfileForm } from '../components/ProfileForm';
import { createBody, emptyProfile, type ProfileValues } from '../lib/profile';
import { subscriberPath } from '../lib/queries';

/** A new subscriber. */
export function NewSubscriber() {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: async (values: ProfileValues) => {
      const id = values.subscriberId.trim();
      // The server's POST also updates an existing subscriber: adding must not overwrite one.
      const existing = await api(subscriberPath(id)).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return false;
          throw error;
        },
      );
      if (existing) throw new ApiError(409, `A subscriber with the ID ${id} already exists.`);
      await api('/v1/subscribers', { method: 'POST', body: createBody(values) });
      return id;
    },
    onSuccess: (id) => {
      void queryClient.invalidateQueries({ queryKey: ['subscribers', token] });
      void navigate(`/subscribers/${encodeURIComponent(id)}`);
    },
  });
  return (
    <div className="page records">
      <header className="records-header">
        <div>
          <p>
            <Link to="/subscribers">Subscribers</Link>
          </p>
          <h1>Add a subscriber</h1>
        </div>
      </header>
      <div className="card">
        <ProfileForm
          initial={emptyProfile}
          isNew
          busy={create.isPending}
          error={create.error?.message}
          onSubmit={(values) => create.mutate(values)}
        />
      </div>
    </div>
  );
}
