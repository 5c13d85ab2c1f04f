import { api, ApiError } from '../../../lib/api';

// "Send your first notification" (Get started): a workflow of its own with one in-app step,
// made once per Development environment, and a trigger of it to the signed-in person, who is
// also the subscriber of the inbox shown on the page.

export const GET_STARTED_WORKFLOW = 'sino-get-started';

const IN_APP_CONTENT =
  'Your first notification from Sino arrived, {{name}}. Triggered from the console, delivered live to this inbox.';

interface Workflow {
  _id: string;
}

/** The Get started workflow: read by its identifier, made on the first send. */
async function ensureWorkflow(): Promise<void> {
  try {
    await api<{ data: Workflow }>(`/v1/workflows/${GET_STARTED_WORKFLOW}`);
    return;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  await api<{ data: Workflow }>('/v1/workflows', {
    method: 'POST',
    body: {
      name: 'Get started',
      identifier: GET_STARTED_WORKFLOW,
      description: 'Sent from the console to try the inbox (Get started).',
      tags: ['get-started'],
      active: true,
      steps: [{ name: 'In-app', template: { type: 'in_app', content: IN_APP_CONTENT } }],
    },
  });
}

export interface Recipient {
  subscriberId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** Makes the workflow if needed and triggers it to the person; answers the transaction id. */
export async function sendFirstNotification(to: Recipient): Promise<string> {
  await ensureWorkflow();
  const answer = await api<{ data: { acknowledged: boolean; transactionId: string } }>(
    '/v1/events/trigger',
    {
      method: 'POST',
      body: {
        name: GET_STARTED_WORKFLOW,
        to: {
          subscriberId: to.subscriberId,
          email: to.email,
          ...(to.firstName ? { firstName: to.firstName } : {}),
          ...(to.lastName ? { lastName: to.lastName } : {}),
        },
        payload: { name: to.firstName ?? to.email },
      },
    },
  );
  return answer.data.transactionId;
}

/**
 * The subscriber hash an inbox needs when the environment's in-app integration has HMAC on:
 * HMAC-SHA256 of the subscriber id with the API key, in hex (Novu's `subscriberHash`).
 */
export async function subscriberHash(apiKey: string, subscriberId: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(apiKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(subscriberId));
  return [...new Uint8Array(signature)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
