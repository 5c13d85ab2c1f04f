import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { emailField, z } from '../../../lib/forms';
import { useSignedIn } from '../../../lib/session';
import { CopyButton } from '../../../components/CopyButton';
import { Field } from '../../../components/Field';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import {
  nameOf,
  useInvitations,
  useMembers,
  useRole,
  when,
  type Invitation,
  type Member,
  type Role,
} from '../lib/queries';

const ROLE_LABEL: Record<Role, string> = { admin: 'Admin', member: 'Member' };
const STATUS_LABEL: Record<string, string> = { active: 'Active', suspended: 'Suspended' };

/** The organisation's people: everyone sees the list; admins invite, change roles and remove. */
export function Members() {
  const role = useRole();
  const members = useMembers();
  const isAdmin = role.data === 'admin';
  const invitations = useInvitations(isAdmin);

  if (members.isPending || role.isPending) return <Loading label="Loading the members…" />;
  if (members.isError)
    return <ErrorState message={members.error.message} retry={() => void members.refetch()} />;
  if (role.isError)
    return <ErrorState message={role.error.message} retry={() => void role.refetch()} />;

  return (
    <section aria-labelledby="members-title" className="settings-panel">
      <h2 id="members-title">Members</h2>
      {isAdmin ? (
        <InviteForm />
      ) : (
        <p className="muted">Only admins invite people, change roles and remove members.</p>
      )}
      <MemberTable members={members.data} isAdmin={isAdmin} />
      {isAdmin &&
        (invitations.isPending ? (
          <Loading label="Loading the invitations…" />
        ) : invitations.isError ? (
          <ErrorState
            message={invitations.error.message}
            retry={() => void invitations.refetch()}
          />
        ) : (
          <PendingInvitations invitations={invitations.data} />
        ))}
    </section>
  );
}

const inviteSchema = z.object({ email: emailField, role: z.enum(['member', 'admin']) });
type InviteValues = z.infer<typeof inviteSchema>;

function InviteForm() {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const roleId = useId();
  const [sent, setSent] = useState<{ email: string; link: string | null } | null>(null);
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', role: 'member' },
  });
  const invite = useMutation({
    mutationFn: (values: InviteValues) =>
      api<{ data: { invitationLink?: string } }>('/v1/invites', { method: 'POST', body: values }),
    onSuccess: (answer, values) => {
      setSent({ email: values.email, link: answer.data.invitationLink ?? null });
      form.reset({ email: '', role: values.role });
      void queryClient.invalidateQueries({ queryKey: ['invitations', token] });
    },
  });
  return (
    <div className="card">
      <h3>Invite someone</h3>
      <form
        className="invite-form"
        noValidate
        onSubmit={form.handleSubmit((values) => {
          setSent(null);
          invite.mutate(values);
        })}
      >
        <Field
          label="E-mail"
          type="email"
          autoComplete="off"
          error={form.formState.errors.email}
          {...form.register('email')}
        />
        <div className="field">
          <label htmlFor={roleId}>Role</label>
          <select id={roleId} {...form.register('role')}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      <FormAlert message={invite.error?.message} />
      {sent &&
        (sent.link ? (
          <div role="status" className="alert alert-success invitation-link">
            <p>
              {sent.email} is invited. This installation sends no e-mail: send them this link
              yourself. It is shown only now.
            </p>
            <code>{sent.link}</code>
            <CopyButton value={sent.link} label="Copy the link" />
          </div>
        ) : (
          <FormNotice message={`${sent.email} is invited: the link is on its way by e-mail.`} />
        ))}
    </div>
  );
}

function MemberTable({ members, isAdmin }: { members: Member[]; isAdmin: boolean }) {
  const { user } = useSignedIn();
  const [removing, setRemoving] = useState<Member | null>(null);
  return (
    <div className="card">
      <h3>People in the organization</h3>
      <div className="table-wrap">
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              {isAdmin && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member._id}>
                <th scope="row" data-label="Name">
                  {nameOf(member.user)}
                  {member.user._id === user._id && <span className="badge">You</span>}
                </th>
                <td data-label="E-mail" className="wrap-anywhere">
                  {member.user.email}
                </td>
                <td data-label="Role">
                  {isAdmin ? (
                    <RoleSelect member={member} />
                  ) : (
                    ROLE_LABEL[member.roles[0] ?? 'member']
                  )}
                </td>
                <td data-label="Status">
                  {STATUS_LABEL[member.user.status] ?? member.user.status}
                </td>
                {isAdmin && (
                  <td>
                    <button
                      type="button"
                      className="button button-secondary"
                      aria-label={`Remove ${nameOf(member.user)}`}
                      onClick={() => setRemoving(member)}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {removing && <RemoveMember member={removing} onClose={() => setRemoving(null)} />}
    </div>
  );
}

/** A role changes when chosen; the server's refusal (the last admin) is said beside it. */
function RoleSelect({ member }: { member: Member }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const id = useId();
  const current = member.roles[0] ?? 'member';
  const change = useMutation({
    mutationFn: (role: Role) =>
      api(`/v1/organizations/members/${encodeURIComponent(member._id)}/roles`, {
        method: 'PUT',
        body: { role },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['members', token] });
      void queryClient.invalidateQueries({ queryKey: ['me', token] });
    },
  });
  return (
    <div className="role-cell">
      <label htmlFor={id} className="visually-hidden">
        Role of {nameOf(member.user)}
      </label>
      <select
        id={id}
        value={change.isPending ? change.variables : current}
        disabled={change.isPending}
        aria-describedby={change.isError ? `${id}-error` : undefined}
        onChange={(event) => change.mutate(event.target.value as Role)}
      >
        <option value="member">Member</option>
        <option value="admin">Admin</option>
      </select>
      {change.isError && (
        <p id={`${id}-error`} role="alert" className="field-error">
          {change.error.message}
        </p>
      )}
    </div>
  );
}

function RemoveMember({ member, onClose }: { member: Member; onClose: () => void }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      api(`/v1/organizations/members/${encodeURIComponent(member._id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['members', token] });
      onClose();
    },
  });
  const name = nameOf(member.user);
  return (
    <ConfirmDialog
      title={`Remove ${name}?`}
      confirmLabel="Remove"
      busyLabel="Removing…"
      busy={remove.isPending}
      error={remove.error?.message ?? null}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
    >
      <p>
        {name} ({member.user.email}) loses access to this organization at once. Their account stays;
        an admin can invite them again.
      </p>
    </ConfirmDialog>
  );
}

function PendingInvitations({ invitations }: { invitations: Invitation[] }) {
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  return (
    <div className="card">
      <h3>Pending invitations</h3>
      {invitations.length === 0 ? (
        <p className="settings-empty">No invitation is waiting to be accepted.</p>
      ) : (
        <ul className="settings-list">
          {invitations.map((invitation) => (
            <li key={invitation._id}>
              <div>
                <strong className="wrap-anywhere">{invitation.email}</strong>{' '}
                <span className="badge">{ROLE_LABEL[invitation.role]}</span>
                <p className="hint">
                  Invited {when(invitation.createdAt)}
                  {invitation.inviter.firstName && ` by ${invitation.inviter.firstName}`}; the link
                  works until {when(invitation.expiresAt)}.
                </p>
              </div>
              <button
                type="button"
                className="button button-secondary"
                aria-label={`Revoke the invitation of ${invitation.email}`}
                onClick={() => setRevoking(invitation)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoking && <RevokeInvitation invitation={revoking} onClose={() => setRevoking(null)} />}
    </div>
  );
}

function RevokeInvitation({
  invitation,
  onClose,
}: {
  invitation: Invitation;
  onClose: () => void;
}) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      api(`/v1/invites/${encodeURIComponent(invitation._id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['invitations', token] });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title="Revoke this invitation?"
      confirmLabel="Revoke"
      busyLabel="Revoking…"
      busy={revoke.isPending}
      error={revoke.error?.message ?? null}
      onConfirm={() => revoke.mutate()}
      onClose={onClose}
    >
      <p>The link sent to {invitation.email} stops working. You can invite them again later.</p>
    </ConfirmDialog>
  );
}
