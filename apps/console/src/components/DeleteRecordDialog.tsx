import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../lib/api';
import { useSignedIn } from '../lib/session';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * A record's deletion, confirmed: the DELETE, then the record's cached read dropped, its list
 * read again, and the way back to the list. The server's refusal stays in the dialog.
 */
export function DeleteRecordDialog({
  name,
  apiPath,
  recordKey,
  listKey,
  listPath,
  onClose,
  children,
}: {
  name: string;
  /** The record's API path (`/v1/tenants/acme`). */
  apiPath: string;
  /** Its query key's first part and id (`['tenant', 'acme']`): the session's token goes between. */
  recordKey: readonly [string, string];
  /** The list's query key's first part (`'tenants'`). */
  listKey: string;
  /** The console's list page (`/tenants`). */
  listPath: string;
  onClose: () => void;
  /** What the deletion does, in a sentence or two. */
  children: ReactNode;
}) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => api(apiPath, { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [recordKey[0], token, recordKey[1]] });
      void queryClient.invalidateQueries({ queryKey: [listKey, token] });
      void navigate(listPath);
    },
  });
  return (
    <ConfirmDialog
      title={`Delete ${name}?`}
      confirmLabel="Delete"
      busyLabel="Deleting…"
      busy={remove.isPending}
      error={remove.error?.message ?? null}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
    >
      {children}
    </ConfirmDialog>
  );
}
