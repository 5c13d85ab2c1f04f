import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apns } from '../../src/adapters/apns/index.js';
import { emailWebhook } from '../../src/adapters/email-webhook/index.js';
import { expo } from '../../src/adapters/expo/index.js';
import { fcm } from '../../src/adapters/fcm/index.js';
import { gupshup } from '../../src/adapters/gupshup/index.js';
import { infobipEmail } from '../../src/adapters/infobip-email/index.js';
import { mailersend } from '../../src/adapters/mailersend/index.js';
import { mailgun } from '../../src/adapters/mailgun/index.js';
import { mailjet } from '../../src/adapters/mailjet/index.js';
import { mailtrap } from '../../src/adapters/mailtrap/index.js';
import { mandrill } from '../../src/adapters/mandrill/index.js';
import { netcore } from '../../src/adapters/netcore/index.js';
import { oneSignal } from '../../src/adapters/one-signal/index.js';
import { plunk } from '../../src/adapters/plunk/index.js';
import { postmark } from '../../src/adapters/postmark/index.js';
import { resend } from '../../src/adapters/resend/index.js';
import { sendgrid } from '../../src/adapters/sendgrid/index.js';
import { sendinblue } from '../../src/adapters/sendinblue/index.js';
import { ses } from '../../src/adapters/ses/index.js';
import { sparkpost } from '../../src/adapters/sparkpost/index.js';
import type { AdapterDefinition, EmailMessage } from '../../src/adapters/types.js';
import { startHttp2Peer, type Http2Peer } from '../peers/http2-peer.js';
import type { PeerAnswer, Received } from '../peers/http-peer.js';
import { aPush, anEmail, anSms, contextFor, usePeer } from './fixtures.js';

/**
 * What a trigger's overrides become in each provider's request (decision 044): copies and
 * blind copies in every email API that takes them, `customData` where Novu 0.24 hands it to
 * the provider, and the push providers' own options. The delivery service resolves which
 * overrides apply; these tests check the adapters' side against local peers.
 */

const peer = usePeer();

/** The copies and blind copies every email adapter is given here. */
const copied = (over: Partial<EmailMessage> = {}) =>
  anEmail({
    cc: ['bia@example.com', 'caio@example.com'],
    bcc: ['auditoria@locadora.example'],
    attachments: [],
    ...over,
  });

interface Recipients {
  to: string[];
  cc: string[];
  bcc: string[];
}

const emails = (list: { email?: string; Email?: string }[] | undefined) =>
  (list ?? []).map((r) => r.email ?? r.Email ?? '');

/** Each email adapter, an answer it accepts, and where its request names each recipient. */
const EMAIL_APIS: {
  name: string;
  definition: AdapterDefinition<'email'>;
  credentials: Record<string, unknown>;
  answer: PeerAnswer;
  recipients(request: Received): Promise<Recipients> | Recipients;
}[] = [
  {
    name: 'SendGrid',
    definition: sendgrid,
    credentials: { apiKey: 'SG.key-1' },
    answer: { status: 202, headers: { 'x-message-id': 'sg-1' } },
    recipients: (r) => {
      const [p] = r.json().personalizations;
      return { to: emails(p.to), cc: emails(p.cc), bcc: emails(p.bcc) };
    },
  },
  {
    name: 'Mailgun',
    definition: mailgun,
    credentials: { apiKey: 'key-mg-1', user: 'api', domain: 'mg.locadora.example' },
    answer: { status: 200, json: { id: '<mg-1@mg.locadora.example>' } },
    recipients: async (r) => {
      const form = await r.formData();
      const all = (key: string) => form.getAll(key).map(String);
      return { to: all('to'), cc: all('cc'), bcc: all('bcc') };
    },
  },
  {
    name: 'Mailjet',
    definition: mailjet,
    credentials: { apiKey: 'mj-1', secretKey: 'mj-secret-1' },
    answer: {
      status: 200,
      json: { Messages: [{ Status: 'success', To: [{ MessageUUID: 'mj-uuid-1' }] }] },
    },
    recipients: (r) => {
      const [m] = r.json().Messages;
      return { to: emails(m.To), cc: emails(m.Cc), bcc: emails(m.Bcc) };
    },
  },
  {
    name: 'Mailtrap',
    definition: mailtrap,
    credentials: { apiKey: 'mt-1' },
    answer: { status: 200, json: { success: true, message_ids: ['mt-1'] } },
    recipients: (r) => {
      const b = r.json();
      return { to: emails(b.to), cc: emails(b.cc), bcc: emails(b.bcc) };
    },
  },
  {
    name: 'Mandrill',
    definition: mandrill,
    credentials: { apiKey: 'md-1' },
    answer: { status: 200, json: [{ email: 'ana@example.com', status: 'sent', _id: 'md-1' }] },
    recipients: (r) => {
      const { to, preserve_recipients } = r.json().message as {
        to: { email: string; type: string }[];
        preserve_recipients?: boolean;
      };
      // The copies are shown as copies only in one message to everybody.
      expect(preserve_recipients).toBe(true);
      const of = (type: string) => to.filter((t) => t.type === type).map((t) => t.email);
      return { to: of('to'), cc: of('cc'), bcc: of('bcc') };
    },
  },
  {
    name: 'Postmark',
    definition: postmark,
    credentials: { apiKey: 'pm-1' },
    answer: { status: 200, json: { ErrorCode: 0, MessageID: 'pm-1' } },
    recipients: (r) => {
      const b = r.json();
      const split = (s: string | undefined) => (s ? s.split(',') : []);
      return { to: split(b.To), cc: split(b.Cc), bcc: split(b.Bcc) };
    },
  },
  {
    name: 'Resend',
    definition: resend,
    credentials: { apiKey: 're_1' },
    answer: { status: 200, json: { id: 're-1' } },
    recipients: (r) => {
      const b = r.json();
      return { to: b.to, cc: b.cc ?? [], bcc: b.bcc ?? [] };
    },
  },
  {
    name: 'Brevo',
    definition: sendinblue,
    credentials: { apiKey: 'xkeysib-1' },
    answer: { status: 201, json: { messageId: '<br-1@smtp-relay.mailin.fr>' } },
    recipients: (r) => {
      const b = r.json();
      return { to: emails(b.to), cc: emails(b.cc), bcc: emails(b.bcc) };
    },
  },
  {
    name: 'Netcore',
    definition: netcore,
    credentials: { apiKey: 'nc-1' },
    answer: { status: 200, json: { data: { message_id: 'nc-1' }, status: 'success' } },
    recipients: (r) => {
      const [p] = r.json().personalizations;
      return { to: emails(p.to), cc: emails(p.cc), bcc: emails(p.bcc) };
    },
  },
  {
    name: 'MailerSend',
    definition: mailersend,
    credentials: { apiKey: 'mlsn.1' },
    answer: { status: 202, headers: { 'x-message-id': 'ms-1' } },
    recipients: (r) => {
      const b = r.json();
      return { to: emails(b.to), cc: emails(b.cc), bcc: emails(b.bcc) };
    },
  },
  {
    name: 'SES',
    definition: ses,
    credentials: { apiKey: 'AKIAEXAMPLEKEY1', secretKey: 'ses-secret-1', region: 'sa-east-1' },
    answer: { status: 200, json: { MessageId: 'ses-1' } },
    recipients: (r) => {
      const d = r.json().Destination;
      return { to: d.ToAddresses, cc: d.CcAddresses ?? [], bcc: d.BccAddresses ?? [] };
    },
  },
  {
    name: 'Infobip',
    definition: infobipEmail,
    credentials: { apiKey: 'ib-key-0123456789', baseUrl: 'https://xyz.api.infobip.example' },
    answer: {
      status: 200,
      json: { bulkId: 'b-1', messages: [{ messageId: 'ib-1', status: { groupName: 'PENDING' } }] },
    },
    recipients: async (r) => {
      const form = await r.formData();
      const all = (key: string) => form.getAll(key).map(String);
      return { to: all('to'), cc: all('cc'), bcc: all('bcc') };
    },
  },
  {
    name: 'SparkPost',
    definition: sparkpost,
    credentials: { apiKey: 'sp-key-1234abcd' },
    answer: { status: 200, json: { results: { total_accepted_recipients: 4, id: 'sp-1' } } },
    recipients: (r) => {
      const b = r.json() as {
        recipients: { address: { email: string; header_to?: string } }[];
        content: { headers?: { CC?: string } };
      };
      const to = b.recipients.filter((x) => !x.address.header_to).map((x) => x.address.email);
      const copies = b.recipients.filter((x) => x.address.header_to);
      // Copies carry the primary recipients in their To header; only copies are in CC.
      expect(copies.every((x) => x.address.header_to === to.join(','))).toBe(true);
      const cc = b.content.headers?.CC?.split(',') ?? [];
      return {
        to,
        cc,
        bcc: copies.map((x) => x.address.email).filter((e) => !cc.includes(e)),
      };
    },
  },
  {
    name: 'Email Webhook',
    definition: emailWebhook,
    credentials: { webhookUrl: '', secretKey: 'whsec-1' },
    answer: { status: 200, json: {} },
    recipients: (r) => {
      const b = r.json();
      return { to: b.to, cc: b.cc, bcc: b.bcc };
    },
  },
];

describe('email copies and blind copies', () => {
  for (const api of EMAIL_APIS)
    it(`${api.name} names every recipient in its own field`, async () => {
      peer.reply(api.answer);
      const credentials =
        api.definition === emailWebhook
          ? { ...api.credentials, webhookUrl: `${peer.url}/hooks/email` }
          : api.credentials;
      await api.definition.create(contextFor(peer.url, credentials)).send(copied());
      expect(peer.requests).toHaveLength(1);
      expect(await api.recipients(peer.requests[0]!)).toEqual({
        to: ['ana@example.com'],
        cc: ['bia@example.com', 'caio@example.com'],
        bcc: ['auditoria@locadora.example'],
      });
    });

  it('Plunk, whose API has no copies, sends to the recipients only (as Novu 0.24 does)', async () => {
    peer.reply({ status: 200, json: { success: true, emails: [{ email: 'pl-1' }] } });
    await plunk.create(contextFor(peer.url, { apiKey: 'sk_plunk_1' })).send(copied());
    const body = peer.requests[0]!.json();
    expect(body.to).toEqual(['ana@example.com']);
    expect(JSON.stringify(body)).not.toMatch(/bia@|caio@|auditoria@/);
  });

  it('leaves the fields out when there are none', async () => {
    peer.reply({ status: 202, headers: { 'x-message-id': 'sg-2' } });
    await sendgrid.create(contextFor(peer.url, { apiKey: 'SG.key-1' })).send(anEmail());
    expect(peer.requests[0]!.json().personalizations).toEqual([
      { to: [{ email: 'ana@example.com' }] },
    ]);
  });
});

describe('customData and the IP pool', () => {
  it('SendGrid: a dynamic template and its data, the rest as custom arguments (strings), the pool', async () => {
    peer.reply({ status: 202 });
    await sendgrid
      .create(contextFor(peer.url, { apiKey: 'SG.key-1', ipPoolName: 'integration-pool' }))
      .send(
        anEmail({
          attachments: [],
          ipPoolName: 'trigger-pool',
          customData: {
            templateId: 'd-123',
            dynamicTemplateData: { nome: 'Ana' },
            campanha: 'verao',
            lote: 7,
            sinoMessageId: 'not-this',
          },
        }),
      );
    const body = peer.requests[0]!.json();
    expect(body.template_id).toBe('d-123');
    expect(body.personalizations[0].dynamic_template_data).toEqual({ nome: 'Ana' });
    expect(body.custom_args).toEqual({ campanha: 'verao', lote: '7', sinoMessageId: 'msg-1' });
    expect(body.ip_pool_name).toBe('trigger-pool');
  });

  it("MailerSend and Brevo: the account's template and its data", async () => {
    peer.reply({ status: 202 }, { status: 201, json: { messageId: 'br-1' } });
    const personalization = [{ email: 'ana@example.com', data: { nome: 'Ana' } }];
    await mailersend
      .create(contextFor(peer.url, { apiKey: 'mlsn.1' }))
      .send(anEmail({ customData: { templateId: 'tpl-9', personalization } }));
    await sendinblue
      .create(contextFor(peer.url, { apiKey: 'xkeysib-1' }))
      .send(anEmail({ customData: { templateId: '12', templateParams: { nome: 'Ana' } } }));
    expect(peer.requests[0]!.json()).toMatchObject({ template_id: 'tpl-9', personalization });
    expect(peer.requests[1]!.json()).toMatchObject({ templateId: 12, params: { nome: 'Ana' } });
  });

  it('Email Webhook: in the body, as Novu sends it', async () => {
    peer.reply({ status: 200 });
    await emailWebhook
      .create(contextFor(peer.url, { webhookUrl: `${peer.url}/hooks/email`, secretKey: 'whsec-1' }))
      .send(anEmail({ customData: { campanha: 'verao' } }));
    expect(peer.requests[0]!.json().customData).toEqual({ campanha: 'verao' });
  });

  it("Gupshup: India's DLT entity and template ids", async () => {
    peer.reply({ status: 200, body: 'success | 5511999990000 | 3475786375286-2374\n' });
    await gupshup
      .create(contextFor(peer.url, { user: '2000123456', password: 'gupshup-pass-1' }))
      .send(anSms({ customData: { principalEntityId: 'PE-1', dltTemplateId: 'TPL-2' } }));
    const form = peer.requests[0]!.form();
    expect([form.get('principalEntityId'), form.get('dltTemplateId')]).toEqual(['PE-1', 'TPL-2']);
  });
});

describe('FCM overrides', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const sendPath = '/v1/projects/locadora-app/messages:send';
  beforeEach(() =>
    peer.otherwise((req: Received) =>
      req.url.pathname === '/token'
        ? { status: 200, json: { access_token: 'ya29.overrides', expires_in: 3599 } }
        : { status: 200, json: { name: 'projects/locadora-app/messages/1' } },
    ),
  );
  const adapter = () =>
    fcm.create(
      contextFor(peer.url, {
        serviceAccount: JSON.stringify({
          project_id: 'locadora-app',
          private_key: pem,
          client_email: 'overrides@locadora-app.iam.gserviceaccount.com',
          token_uri: `${peer.url}/token`,
        }),
      }),
    );
  const sent = () => peer.requests.find((r) => r.url.pathname === sendPath)!.json().message;

  it('sets title, body, image, the data, and the legacy fields where HTTP v1 takes them', async () => {
    await adapter().send(
      aPush({
        overrides: {
          title: 'Novo título',
          body: 'Novo corpo',
          imageUrl: 'https://locadora.example/carro.png',
          sound: 'buzina.caf',
          badge: '3',
          tag: 'reserva-42',
          color: '#ff0000',
          clickAction: 'OPEN_RESERVA',
          titleLocKey: 'RESERVA_TITULO',
          bodyLocArgs: 'R-42',
          data: { reservaId: 42, etapa: 'retirada' },
          android: { priority: 'high', notification: { channel_id: 'reservas' } },
          fcmOptions: { analytics_label: 'reservas' },
          unknownToFcm: 'left out',
        },
      }),
    );
    expect(sent()).toEqual({
      token: 'device-token-1',
      notification: {
        title: 'Novo título',
        body: 'Novo corpo',
        image: 'https://locadora.example/carro.png',
      },
      data: { reservaId: '42', etapa: 'retirada' },
      android: {
        priority: 'high',
        notification: {
          sound: 'buzina.caf',
          tag: 'reserva-42',
          color: '#ff0000',
          click_action: 'OPEN_RESERVA',
          title_loc_key: 'RESERVA_TITULO',
          body_loc_args: ['R-42'],
          channel_id: 'reservas',
        },
      },
      apns: { payload: { aps: { sound: 'buzina.caf', badge: 3 } } },
      fcm_options: { analytics_label: 'reservas' },
    });
  });

  it("type 'data' sends a data-only message carrying title and body", async () => {
    await adapter().send(aPush({ overrides: { type: 'data' } }));
    expect(sent()).toEqual({
      token: 'device-token-1',
      data: {
        reservaId: '42',
        title: 'Reserva confirmada',
        body: 'Seu carro espera por você',
        message: 'Seu carro espera por você',
      },
    });
  });
});

describe('APNs overrides', () => {
  let apnsPeer: Http2Peer;
  beforeAll(async () => void (apnsPeer = await startHttp2Peer()));
  afterAll(() => apnsPeer.close());
  beforeEach(() => void apnsPeer.requests.splice(0));
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const send = async (overrides: Record<string, unknown>) => {
    const client = apns.create(
      contextFor(apnsPeer.url, {
        secretKey: pem,
        apiKey: 'ABC123DEFG',
        projectName: 'DEF123GHIJ',
        applicationId: 'com.locadora.app',
      }),
    );
    try {
      await client.send(aPush({ overrides }));
    } finally {
      await client.close?.();
    }
    return apnsPeer.requests[0]!;
  };

  it("sets the alert, badge, sound, flags, custom keys and headers as node-apn's options do", async () => {
    const req = await send({
      title: 'Novo título',
      subtitle: 'Loja Centro',
      badge: 2,
      sound: 'buzina.caf',
      contentAvailable: true,
      mutableContent: false,
      threadId: 'reserva-42',
      payload: { reservaId: 42 },
      aps: { category: 'RESERVA' },
      topic: 'com.locadora.app.voip',
      pushType: 'voip',
      priority: 5,
      expiry: 1900000000,
      collapseId: 'reserva-42',
      id: '6F1C2A52-3B7E-4A2F-9F7E-1D2C3B4A5E6F',
    });
    expect(req.json()).toEqual({
      reservaId: 42,
      aps: {
        alert: {
          title: 'Novo título',
          subtitle: 'Loja Centro',
          body: 'Seu carro espera por você',
        },
        category: 'RESERVA',
        badge: 2,
        sound: 'buzina.caf',
        'content-available': 1,
        'thread-id': 'reserva-42',
      },
    });
    expect(req.headers).toMatchObject({
      'apns-topic': 'com.locadora.app.voip',
      'apns-push-type': 'voip',
      'apns-priority': '5',
      'apns-expiration': '1900000000',
      'apns-collapse-id': 'reserva-42',
      'apns-id': '6f1c2a52-3b7e-4a2f-9f7e-1d2c3b4a5e6f',
    });
  });

  it('sends a string alert as given, and rawPayload as the whole body', async () => {
    expect((await send({ alert: 'Só isto' })).json().aps).toEqual({ alert: 'Só isto' });
    apnsPeer.requests.splice(0);
    const raw = { aps: { 'content-available': 1 }, sync: true };
    expect((await send({ rawPayload: raw })).json()).toEqual(raw);
  });
});

describe('Expo and OneSignal overrides', () => {
  it('Expo: its message fields over Sino’s, the targets untouched', async () => {
    peer.reply({ status: 200, json: { data: [{ status: 'ok', id: 'ticket-1' }] } });
    await expo.create(contextFor(peer.url, {})).send(
      aPush({
        target: ['ExponentPushToken[ana]'],
        overrides: {
          to: 'ExponentPushToken[other]',
          title: 'Novo título',
          sound: 'default',
          badge: 4,
          data: { reservaId: 42 },
          channelId: 'reservas',
        },
      }),
    );
    expect(peer.requests[0]!.json()).toEqual([
      {
        to: 'ExponentPushToken[ana]',
        title: 'Novo título',
        body: 'Seu carro espera por você',
        data: { reservaId: 42 },
        sound: 'default',
        badge: 4,
        channelId: 'reservas',
      },
    ]);
  });

  it('OneSignal: sound, subtitle, icon, channel and category where its API takes them', async () => {
    peer.reply({ status: 200, json: { id: 'os-1' } });
    await oneSignal
      .create(contextFor(peer.url, { applicationId: 'app-1', apiKey: 'os-key-1' }))
      .send(
        aPush({
          overrides: {
            sound: 'buzina',
            subtitle: 'Loja Centro',
            icon: 'ic_carro',
            channelId: 'reservas',
            categoryId: 'RESERVA',
            mutableContent: true,
          },
        }),
      );
    expect(peer.requests[0]!.json()).toMatchObject({
      ios_sound: 'buzina',
      android_sound: 'buzina',
      subtitle: { en: 'Loja Centro' },
      small_icon: 'ic_carro',
      large_icon: 'ic_carro',
      android_channel_id: 'reservas',
      ios_category: 'RESERVA',
      mutable_content: true,
    });
  });
});
