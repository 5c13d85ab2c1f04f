import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANNELS, type Channel } from '@sino/shared';
import { describe, expect, it } from 'vitest';
import { missingCredentials, providerById, providers, type ProviderEntry } from '../src/index.js';
import { LOGOS_DIR, drawLogo } from '../scripts/draw-logos.js';

/**
 * The specification's provider lists (section 3), transcribed by hand: channel → provider
 * display name → its credentials' display names in the spec's order, "?" marking an optional
 * one, and the beta flag. The catalogue must match it exactly (issue 13, acceptance 1).
 * Wording the spec gives loosely is written as the catalogue names it: SparkPost's "EU flag" is
 * the switch "EU", Slack's and the in-app provider's "HMAC switch" the switch "HMAC". Every
 * switch is optional (on or off; absent means off), so each carries "?".
 */
type Row = { credentials: string[]; beta?: true };
const apiKeyFromSender = ['API key', 'From', 'Sender name'];
const SPEC: Record<Channel, Record<string, Row>> = {
  email: {
    'Novu email': { credentials: [] },
    Mailgun: {
      credentials: ['API key', 'Base URL?', 'User name', 'Domain', 'From', 'Sender name'],
    },
    Mailjet: { credentials: ['API key', 'API secret', 'From', 'Sender name'] },
    Mailtrap: { credentials: apiKeyFromSender },
    Mandrill: { credentials: apiKeyFromSender },
    Postmark: { credentials: apiKeyFromSender },
    Resend: { credentials: apiKeyFromSender },
    Plunk: { credentials: apiKeyFromSender },
    Sendinblue: { credentials: apiKeyFromSender },
    Netcore: { credentials: apiKeyFromSender },
    MailerSend: { credentials: apiKeyFromSender },
    SendGrid: { credentials: ['API key', 'IP pool name?', 'From', 'Sender name'] },
    SES: {
      credentials: ['Access key ID', 'Secret access key', 'Region', 'From', 'Sender name'],
    },
    'Custom SMTP': {
      credentials: [
        'User?',
        'Password?',
        'Host',
        'Port',
        'Secure?',
        'Require TLS?',
        'Ignore TLS?',
        'TLS options?',
        'DKIM domain?',
        'DKIM private key?',
        'DKIM key selector?',
        'From',
        'Sender name',
      ],
    },
    Outlook365: { credentials: ['Password', 'From', 'Sender name'] },
    Infobip: { credentials: ['API key', 'Base URL', 'From', 'Sender name'] },
    SparkPost: { credentials: ['API key', 'EU?', 'From', 'Sender name'] },
    'Email Webhook': {
      credentials: ['Webhook URL', 'Secret HMAC key', 'From', 'Sender name'],
      beta: true,
    },
  },
  sms: {
    'Novu SMS': { credentials: [] },
    Nexmo: { credentials: ['API key', 'API secret', 'From'] },
    Plivo: { credentials: ['Account SID', 'Auth token', 'From'] },
    Twilio: { credentials: ['Account SID', 'Auth token', 'From'] },
    sms77: { credentials: ['API key', 'From'] },
    Termii: { credentials: ['API key', 'From'] },
    Sendchamp: { credentials: ['API key', 'From'] },
    Firetext: { credentials: ['API key', 'From'] },
    SNS: { credentials: ['Access key ID', 'Secret key', 'AWS region'] },
    Telnyx: { credentials: ['API key', 'Message profile ID', 'From'] },
    Gupshup: { credentials: ['User ID', 'Password'] },
    Infobip: { credentials: ['API key', 'Base URL', 'From'] },
    BurstSMS: { credentials: ['API key', 'API secret'] },
    Clickatell: { credentials: ['API key'], beta: true },
    '46elks': { credentials: ['Username', 'Password', 'From'] },
    Kannel: { credentials: ['Host', 'Port', 'Username?', 'Password?', 'From'], beta: true },
    Maqsam: { credentials: ['Access key ID', 'Access secret', 'From'] },
    'SMS Central': { credentials: ['Username', 'Password', 'Base URL?', 'From'] },
    "Africa's Talking": { credentials: ['API key', 'Username', 'From'] },
    Clicksend: { credentials: ['Username', 'API key', 'From'] },
    Bandwidth: { credentials: ['Username', 'Password', 'Account ID', 'From'], beta: true },
  },
  chat: {
    Slack: {
      credentials: ['Application ID', 'Client ID', 'Client secret', 'Redirect URL?', 'HMAC?'],
    },
    Discord: { credentials: [] },
    MSTeams: { credentials: [] },
    Mattermost: { credentials: [] },
    Ryver: { credentials: [] },
  },
  push: {
    OneSignal: { credentials: ['Application ID', 'API key'] },
    Pushpad: { credentials: ['Auth token', 'Project ID'] },
    FCM: { credentials: ['Service account JSON'] },
    Expo: { credentials: ['Access token'] },
    APNs: {
      credentials: ['Private key', 'Key ID', 'Team ID', 'Bundle ID', 'Production?'],
      beta: true,
    },
    'Push Webhook': { credentials: ['Webhook URL', 'Secret HMAC key'], beta: true },
  },
  in_app: {
    'Novu In-App': { credentials: ['HMAC?'] },
  },
};

const norm = (text: string) => text.toLowerCase();
const asRow = (entry: ProviderEntry): Row => ({
  credentials: entry.credentials.map((f) => `${f.displayName}${f.required ? '' : '?'}`),
  ...(entry.betaVersion ? { beta: true as const } : {}),
});

describe('the catalogue against the specification', () => {
  for (const channel of CHANNELS) {
    it(`has exactly the spec's ${channel} providers, in its order`, () => {
      const ours = providers.filter((p) => p.channel === channel).map((p) => norm(p.displayName));
      expect(ours).toEqual(Object.keys(SPEC[channel]).map(norm));
    });

    for (const [name, row] of Object.entries(SPEC[channel])) {
      it(`${channel} / ${name}: credentials, optional ones and beta flag as the spec gives them`, () => {
        const entry = providers.find(
          (p) => p.channel === channel && norm(p.displayName) === norm(name),
        );
        expect(entry, `${name} is missing`).toBeDefined();
        const actual = asRow(entry!);
        expect({ ...actual, credentials: actual.credentials.map(norm) }).toEqual({
          ...row,
          credentials: row.credentials.map(norm),
        });
      });
    }
  }

  it('uses Novu 0.24 ids for the providers the brief names', () => {
    const ids = (channel: Channel) =>
      providers.filter((p) => p.channel === channel).map((p) => p.id);
    expect(ids('email')).toEqual(
      expect.arrayContaining([
        'novu-email',
        'mailgun',
        'sendgrid',
        'ses',
        'nodemailer',
        'outlook365',
        'email-webhook',
      ]),
    );
    expect(ids('sms')).toEqual(expect.arrayContaining(['novu-sms', 'twilio', 'sns']));
    expect(ids('chat')).toContain('slack');
    expect(ids('push')).toEqual(expect.arrayContaining(['fcm', 'apns', 'push-webhook']));
    expect(ids('in_app')).toEqual(['novu']);
  });

  it("gives the in-app provider one optional HMAC switch with the spec's tooltip", () => {
    const [hmac, ...rest] = providerById('in_app', 'novu')!.credentials;
    expect(rest).toEqual([]);
    expect(hmac).toMatchObject({ key: 'hmac', type: 'switch', required: false });
    expect(hmac!.tooltip).toMatch(/request/i);
    expect(hmac!.tooltip).toMatch(/subscriber/i);
  });
});

/**
 * Each provider's credential keys, in order ("?" marking an optional one), as Novu 0.24 names
 * them (`@novu/shared` 0.24's provider credentials), so `@novu/node` integration calls and
 * credentials migrated from Novu are accepted unchanged. Display names stay the spec's.
 */
const NOVU_KEYS: Record<string, string> = {
  'novu-email': '',
  mailgun: 'apiKey baseUrl? user domain from senderName',
  mailjet: 'apiKey secretKey from senderName',
  mailtrap: 'apiKey from senderName',
  mandrill: 'apiKey from senderName',
  postmark: 'apiKey from senderName',
  resend: 'apiKey from senderName',
  plunk: 'apiKey from senderName',
  sendinblue: 'apiKey from senderName',
  netcore: 'apiKey from senderName',
  mailersend: 'apiKey from senderName',
  sendgrid: 'apiKey ipPoolName? from senderName',
  ses: 'apiKey secretKey region from senderName',
  nodemailer:
    'user? password? host port secure? requireTls? ignoreTls? tlsOptions? domain? secretKey? accountSid? from senderName',
  outlook365: 'password from senderName',
  'infobip-email': 'apiKey baseUrl from senderName',
  sparkpost: 'apiKey region? from senderName',
  'email-webhook': 'webhookUrl secretKey from senderName',
  'novu-sms': '',
  nexmo: 'apiKey secretKey from',
  plivo: 'accountSid token from',
  twilio: 'accountSid token from',
  sms77: 'apiKey from',
  termii: 'apiKey from',
  sendchamp: 'apiKey from',
  firetext: 'apiKey from',
  sns: 'apiKey secretKey region',
  telnyx: 'apiKey messageProfileId from',
  gupshup: 'user password',
  'infobip-sms': 'apiKey baseUrl from',
  'burst-sms': 'apiKey secretKey',
  clickatell: 'apiKey',
  'forty-six-elks': 'user password from',
  kannel: 'host port user? password? from',
  maqsam: 'apiKey secretKey from',
  'sms-central': 'user password baseUrl? from',
  'africas-talking': 'apiKey user from',
  clicksend: 'user apiKey from',
  bandwidth: 'user password accountSid from',
  slack: 'applicationId clientId secretKey redirectUrl? hmac?',
  discord: '',
  msteams: '',
  mattermost: '',
  ryver: '',
  'one-signal': 'applicationId apiKey',
  pushpad: 'apiKey applicationId',
  fcm: 'serviceAccount',
  expo: 'apiKey',
  apns: 'secretKey apiKey projectName applicationId secure?',
  'push-webhook': 'webhookUrl secretKey',
  novu: 'hmac?',
};

describe("credential keys are Novu 0.24's", () => {
  it('has every provider of the table, and no other', () => {
    expect(providers.map((p) => p.id).sort()).toEqual(Object.keys(NOVU_KEYS).sort());
  });

  for (const p of providers) {
    it(`${p.channel} / ${p.id}`, () => {
      const keys = p.credentials.map((f) => `${f.key}${f.required ? '' : '?'}`).join(' ');
      expect(keys).toBe(NOVU_KEYS[p.id]);
    });
  }
});

describe('the catalogue is consistent', () => {
  /** The spec's "Credential keys seen" list: Novu 0.24's keys, and the only keys we use. */
  const SEEN_KEYS = new Set(
    'apiKey secretKey user password host port secure requireTls ignoreTls tlsOptions domain accountSid token from senderName baseUrl region ipPoolName messageProfileId applicationId clientId redirectUrl hmac serviceAccount webhookUrl projectName'.split(
      ' ',
    ),
  );

  it('has ids unique within each channel, and logos unique overall', () => {
    for (const channel of CHANNELS) {
      const ids = providers.filter((p) => p.channel === channel).map((p) => p.id);
      expect(new Set(ids).size, channel).toBe(ids.length);
    }
    const logos = providers.flatMap((p) => [p.logoFileName.light, p.logoFileName.dark]);
    expect(new Set(logos).size).toBe(logos.length);
  });

  it("has keys unique within a provider, all from the spec's list of keys", () => {
    for (const p of providers) {
      const keys = p.credentials.map((f) => f.key);
      expect(new Set(keys).size, p.id).toBe(keys.length);
      for (const key of keys) expect(SEEN_KEYS.has(key), `${p.id}.${key}`).toBe(true);
    }
  });

  it('never requires a switch', () => {
    for (const p of providers)
      for (const f of p.credentials)
        if (f.type === 'switch') expect(f.required, `${p.id}.${f.key}`).toBe(false);
  });

  it('has an https documentation link and English names everywhere', () => {
    for (const p of providers) {
      expect(new URL(p.docReference).protocol, p.id).toBe('https:');
      expect(p.displayName.trim()).toBe(p.displayName);
      for (const f of p.credentials)
        expect(f.displayName, `${p.id}.${f.key}`).toMatch(/^\S.*\S$|^\S$/);
    }
  });

  it('finds each provider by channel and id, and nothing across channels', () => {
    for (const p of providers) expect(providerById(p.channel, p.id)).toBe(p);
    expect(providerById('sms', 'mailgun')).toBeUndefined();
    expect(providerById('email', 'nope')).toBeUndefined();
  });
});

describe('logos', () => {
  it('has each named logo file: a small SVG of our own drawing, up to date with the script', async () => {
    for (const p of providers) {
      for (const [file, dark] of [
        [p.logoFileName.light, false],
        [p.logoFileName.dark, true],
      ] as const) {
        const path = join(LOGOS_DIR, file);
        expect((await stat(path)).size, file).toBeLessThan(2048);
        const svg = await readFile(path, 'utf8');
        expect(svg, file).toMatch(
          /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 64 64"[^>]*>/,
        );
        expect(svg.trimEnd(), file).toMatch(/<\/svg>$/);
        expect(svg, file).not.toMatch(/<(script|image|foreignObject)\b|href=/i);
        // Well formed: every element opened is closed, in order.
        const stack: string[] = [];
        for (const [, closing, name, selfClosing] of svg.matchAll(
          /<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g,
        )) {
          if (closing) expect(stack.pop(), file).toBe(name);
          else if (!selfClosing) stack.push(name!);
        }
        expect(stack, file).toEqual([]);
        expect(svg, `${file} is stale: run npm run draw-logos -w @sino/providers`).toBe(
          drawLogo(p, dark),
        );
      }
    }
  });
});

describe('missingCredentials', () => {
  const smtp = providerById('email', 'nodemailer')!;
  const mailgun = providerById('email', 'mailgun')!;

  it('names each missing required field, in the catalogue order', () => {
    expect(missingCredentials(mailgun, {})).toEqual([
      'apiKey is required',
      'user is required',
      'domain is required',
      'from is required',
      'senderName is required',
    ]);
  });

  it('accepts complete credentials, optional fields left out', () => {
    expect(
      missingCredentials(mailgun, {
        apiKey: 'key-1',
        user: 'api',
        domain: 'mg.example.com',
        from: 'no-reply@example.com',
        senderName: 'Locadora',
      }),
    ).toEqual([]);
    expect(missingCredentials(providerById('email', 'novu-email')!, {})).toEqual([]);
    expect(missingCredentials(providerById('in_app', 'novu')!, {})).toEqual([]);
  });

  it('counts null and blank strings as missing, false as a value', () => {
    const apns = providerById('push', 'apns')!;
    expect(
      missingCredentials(apns, {
        secretKey: '-----BEGIN PRIVATE KEY-----',
        apiKey: '  ',
        projectName: null,
        applicationId: 'com.example',
        secure: false,
      }),
    ).toEqual(['apiKey is required', 'projectName is required']);
  });

  it('never requires a switch: absent is off, and a given one must be true or false', () => {
    const apns = providerById('push', 'apns')!;
    const novuApns = {
      secretKey: '-----BEGIN PRIVATE KEY-----',
      apiKey: 'ABC123DEFG',
      projectName: 'TEAM123456',
      applicationId: 'com.example',
    };
    expect(missingCredentials(apns, novuApns)).toEqual([]);
    expect(missingCredentials(apns, { ...novuApns, secure: true })).toEqual([]);
    expect(missingCredentials(apns, { ...novuApns, secure: 'yes' })).toEqual([
      'secure must be true or false',
    ]);
    const slack = providerById('chat', 'slack')!;
    expect(
      missingCredentials(slack, { applicationId: 'A1', clientId: 'c1', secretKey: 's1' }),
    ).toEqual([]);
    const sparkpost = providerById('email', 'sparkpost')!;
    const sender = { apiKey: 'key-1', from: 'a@example.com', senderName: 'A' };
    expect(missingCredentials(sparkpost, sender)).toEqual([]);
    expect(missingCredentials(sparkpost, { ...sender, region: true })).toEqual([]);
    // Novu 0.24 stored the EU switch as "eu": credentials migrated from it are accepted.
    expect(missingCredentials(sparkpost, { ...sender, region: 'eu' })).toEqual([]);
    expect(missingCredentials(sparkpost, { ...sender, region: 'us' })).toEqual([
      'region must be true or false',
    ]);
  });

  it("accepts credentials written with Novu 0.24's keys", () => {
    expect(
      missingCredentials(providerById('email', 'ses')!, {
        apiKey: 'AKIA1',
        secretKey: 's',
        region: 'eu-west-1',
        from: 'a@example.com',
        senderName: 'A',
      }),
    ).toEqual([]);
    expect(
      missingCredentials(providerById('sms', 'bandwidth')!, {
        user: 'u',
        password: 'p',
        accountSid: '9900',
        from: '+15550100',
      }),
    ).toEqual([]);
    expect(
      missingCredentials(providerById('push', 'pushpad')!, { apiKey: 't', applicationId: '42' }),
    ).toEqual([]);
    expect(missingCredentials(providerById('push', 'expo')!, { apiKey: 't' })).toEqual([]);
  });

  it('checks types: number, boolean and switch, object or JSON of one, string otherwise', () => {
    const base = { host: 'smtp.example.com', from: 'a@example.com', senderName: 'A' };
    expect(missingCredentials(smtp, { ...base, port: 587 })).toEqual([]);
    expect(missingCredentials(smtp, { ...base, port: '587' })).toEqual([]);
    expect(missingCredentials(smtp, { ...base, port: 'smtp' })).toEqual(['port must be a number']);
    expect(missingCredentials(smtp, { ...base, port: 25, secure: 'yes' })).toEqual([
      'secure must be true or false',
    ]);
    expect(missingCredentials(smtp, { ...base, port: 25, requireTls: 1 })).toEqual([
      'requireTls must be true or false',
    ]);
    // Novu 0.24's callers send the TLS switches as text too.
    expect(
      missingCredentials(smtp, { ...base, port: 25, secure: 'true', ignoreTls: 'false' }),
    ).toEqual([]);
    expect(
      missingCredentials(smtp, { ...base, port: 25, tlsOptions: { rejectUnauthorized: false } }),
    ).toEqual([]);
    expect(
      missingCredentials(smtp, { ...base, port: 25, tlsOptions: '{"rejectUnauthorized":false}' }),
    ).toEqual([]);
    expect(missingCredentials(smtp, { ...base, port: 25, tlsOptions: '[1]' })).toEqual([
      'tlsOptions must be an object or a JSON string of one',
    ]);
    expect(missingCredentials(smtp, { ...base, port: 25, tlsOptions: 'not json' })).toEqual([
      'tlsOptions must be an object or a JSON string of one',
    ]);
    expect(missingCredentials(smtp, { ...base, port: 25, host: 42 })).toEqual([
      'host must be a string',
    ]);
    expect(missingCredentials(smtp, { ...base, port: 25, password: 123 })).toEqual([
      'password must be a string',
    ]);
  });

  it('reports a missing field and a mistyped one together', () => {
    expect(missingCredentials(smtp, { port: 'x', from: 'a@example.com', senderName: 'A' })).toEqual(
      ['host is required', 'port must be a number'],
    );
  });
});

/**
 * Destinations (decision 024): every credential that decides where Sino connects is marked,
 * so the rules that hang on the mark (secrets sent again when it changes, failures by class
 * only, the start report) cover every provider. A key that sounds like a destination and is
 * none says why.
 */
describe('destination credentials', () => {
  const SOUNDS_LIKE_A_DESTINATION = /url|host|port|region|domain|endpoint/i;
  const DESTINATIONS: Record<string, string[]> = {
    'email:mailgun': ['baseUrl'],
    'email:ses': ['region'],
    'email:nodemailer': ['host', 'port'],
    'email:infobip-email': ['baseUrl'],
    'email:sparkpost': ['region'],
    'email:email-webhook': ['webhookUrl'],
    'sms:sns': ['region'],
    'sms:infobip-sms': ['baseUrl'],
    'sms:kannel': ['host', 'port'],
    'sms:sms-central': ['baseUrl'],
    'push:apns': ['secure'],
    'push:push-webhook': ['webhookUrl'],
  };

  it('marks every key that sounds like a destination, or says why it is not one', () => {
    for (const p of providers)
      for (const f of p.credentials.filter((c) => SOUNDS_LIKE_A_DESTINATION.test(c.key))) {
        const where = `${p.channel}:${p.id}.${f.key}`;
        expect(
          f.destination !== undefined || (f.notDestination ?? '').length > 10,
          `${where} needs a destination mark or a reason it is none`,
        ).toBe(true);
        expect(f.destination !== undefined && f.notDestination !== undefined, where).toBe(false);
      }
  });

  it('has these destinations, and no other', () => {
    const marked: Record<string, string[]> = {};
    for (const p of providers) {
      const keys = p.credentials.filter((f) => f.destination).map((f) => f.key);
      if (keys.length > 0) marked[`${p.channel}:${p.id}`] = keys;
    }
    expect(marked).toEqual(DESTINATIONS);
  });

  it('lets only webhook URLs escape the operator base URL, and names the provider hosts of base URLs', () => {
    for (const p of providers)
      for (const f of p.credentials.filter((c) => c.destination)) {
        const where = `${p.channel}:${p.id}.${f.key}`;
        expect(f.destination!.replacedByBaseUrl === false, where).toBe(f.key === 'webhookUrl');
        if (f.key === 'baseUrl')
          expect(f.destination!.providerHosts?.length, where).toBeGreaterThan(0);
      }
  });

  it('refuses values that are not what the destination is, and URLs carrying a user or password', () => {
    const smtp = providerById('email', 'nodemailer')!;
    const base = { from: 'a@example.com', senderName: 'A' };
    expect(missingCredentials(smtp, { ...base, host: 'smtp.example.com', port: 587 })).toEqual([]);
    expect(missingCredentials(smtp, { ...base, host: '10.0.0.5', port: '2525' })).toEqual([]);
    expect(missingCredentials(smtp, { ...base, host: 'smtp://x:1/y', port: 0 })).toEqual([
      'host must be a host name or an IP address',
      'port must be a port number (1 to 65535)',
    ]);
    const ses = providerById('email', 'ses')!;
    const aws = { apiKey: 'AKIA', secretKey: 's', ...base };
    expect(missingCredentials(ses, { ...aws, region: 'us-gov-west-1' })).toEqual([]);
    expect(missingCredentials(ses, { ...aws, region: 'x.evil.example#' })).toEqual([
      'region must be an AWS region such as us-east-1',
    ]);
    const central = providerById('sms', 'sms-central')!;
    const login = { user: 'u', password: 'p', from: 'L' };
    expect(missingCredentials(central, { ...login, baseUrl: 'ftp://x' })).toEqual([
      'baseUrl must be an http(s) URL',
    ]);
    expect(
      missingCredentials(central, { ...login, baseUrl: 'http://u:pw@example.com/api' }),
    ).toEqual(['baseUrl must not carry a user name or password; give them in their own fields']);
    // Infobip's portal shows the personal base URL without a scheme.
    const infobip = providerById('sms', 'infobip-sms')!;
    expect(
      missingCredentials(infobip, { apiKey: 'k', baseUrl: 'xyz.api.infobip.com', from: 'L' }),
    ).toEqual([]);
  });
});
