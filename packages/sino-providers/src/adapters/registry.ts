import type { Channel } from '@sino/shared';
import { mailgun } from './mailgun/index.js';
import { mailjet } from './mailjet/index.js';
import { mailtrap } from './mailtrap/index.js';
import { mandrill } from './mandrill/index.js';
import { postmark } from './postmark/index.js';
import { resend } from './resend/index.js';
import { plunk } from './plunk/index.js';
import { sendinblue } from './sendinblue/index.js';
import { netcore } from './netcore/index.js';
import { mailersend } from './mailersend/index.js';
import { sendgrid } from './sendgrid/index.js';
import { ses } from './ses/index.js';
import { nodemailer } from './nodemailer/index.js';
import { outlook365 } from './outlook365/index.js';
import { infobipEmail } from './infobip-email/index.js';
import { sparkpost } from './sparkpost/index.js';
import { emailWebhook } from './email-webhook/index.js';
import { nexmo } from './nexmo/index.js';
import { plivo } from './plivo/index.js';
import { twilio } from './twilio/index.js';
import { sms77 } from './sms77/index.js';
import { termii } from './termii/index.js';
import { sendchamp } from './sendchamp/index.js';
import { firetext } from './firetext/index.js';
import { sns } from './sns/index.js';
import { telnyx } from './telnyx/index.js';
import { gupshup } from './gupshup/index.js';
import { infobipSms } from './infobip-sms/index.js';
import { burstSms } from './burst-sms/index.js';
import { clickatell } from './clickatell/index.js';
import { fortySixElks } from './forty-six-elks/index.js';
import { kannel } from './kannel/index.js';
import { maqsam } from './maqsam/index.js';
import { smsCentral } from './sms-central/index.js';
import { africasTalking } from './africas-talking/index.js';
import { clicksend } from './clicksend/index.js';
import { bandwidth } from './bandwidth/index.js';
import { slack } from './slack/index.js';
import { discord } from './discord/index.js';
import { msteams } from './msteams/index.js';
import { mattermost } from './mattermost/index.js';
import { ryver } from './ryver/index.js';
import { oneSignal } from './one-signal/index.js';
import { pushpad } from './pushpad/index.js';
import { fcm } from './fcm/index.js';
import { expo } from './expo/index.js';
import { apns } from './apns/index.js';
import { pushWebhook } from './push-webhook/index.js';
import type { AdapterDefinition, DeliveryChannel } from './types.js';

/**
 * Every provider's adapter, in the catalogue's order. The sandbox providers (`novu-email`,
 * `novu-sms`) write into Sino's own database and live with it (`@sino/core`); in-app needs no
 * provider.
 */
export const adapterDefinitions: readonly AdapterDefinition[] = [
  // email
  mailgun,
  mailjet,
  mailtrap,
  mandrill,
  postmark,
  resend,
  plunk,
  sendinblue,
  netcore,
  mailersend,
  sendgrid,
  ses,
  nodemailer,
  outlook365,
  infobipEmail,
  sparkpost,
  emailWebhook,

  // sms
  nexmo,
  plivo,
  twilio,
  sms77,
  termii,
  sendchamp,
  firetext,
  sns,
  telnyx,
  gupshup,
  infobipSms,
  burstSms,
  clickatell,
  fortySixElks,
  kannel,
  maqsam,
  smsCentral,
  africasTalking,
  clicksend,
  bandwidth,

  // chat
  slack,
  discord,
  msteams,
  mattermost,
  ryver,

  // push
  oneSignal,
  pushpad,
  fcm,
  expo,
  apns,
  pushWebhook,
] as AdapterDefinition[];

const byKey = new Map(adapterDefinitions.map((d) => [`${d.channel}:${d.providerId}`, d]));

/** The adapter of that provider of the channel, or undefined. */
export function adapterDefinition<C extends DeliveryChannel>(
  channel: C | Channel,
  providerId: string,
): AdapterDefinition<C> | undefined {
  return byKey.get(`${channel}:${providerId}`) as AdapterDefinition<C> | undefined;
}
