import type { Channel } from '@sino/shared';

/** How a credential is entered and checked (the specification's credential field types). */
export type CredentialType =
  'string' | 'number' | 'boolean' | 'switch' | 'object' | 'text' | 'password';

/** One credential a provider needs (the specification's "Credential field"). */
export interface CredentialField {
  /** camelCase key of the value in an integration's `credentials`. */
  key: string;
  displayName: string;
  /**
   * `password` marks a secret (shown masked); `text` a long, possibly multi-line value (a
   * private key, a JSON file); `switch` and `boolean` are on/off values; `object` a JSON object.
   */
  type: CredentialType;
  /** Never true for a `switch`: a switch is on or off, and an absent switch is off. */
  required: boolean;
  description?: string;
  tooltip?: string;
  /**
   * A switch only: texts that also mean on, besides `true` and `"true"` (Novu 0.24 stored
   * SparkPost's EU switch as `"eu"`).
   */
  onValues?: readonly string[];
  /**
   * Set when the value decides where Sino connects (decision 024): changing it while keeping a
   * stored secret is refused (the secrets must be sent again), and a destination the credentials
   * chose is connected to under the egress rule, its failures named by class only.
   */
  destination?: DestinationMark;
  /**
   * Why a key that sounds like a destination (`…url`, `host`, `port`, `region`, `domain`,
   * `endpoint`) is not one: the catalogue test requires this or `destination` on such keys.
   */
  notDestination?: string;
}

/** What part of a destination a credential is. */
export interface DestinationMark {
  /**
   * `url`: a whole URL (an API base, a webhook); `host` and `port`: where a socket connects;
   * `region`: a choice among the provider's own hosts (an AWS region, an EU switch), checked to
   * stay one of them.
   */
  part: 'url' | 'host' | 'port' | 'region';
  /**
   * Hosts of the provider's own service a `url` may name over https (`*.` also matches every
   * subdomain): failures there keep the provider's own words.
   */
  providerHosts?: readonly string[];
  /**
   * Whether the operator's base URL for the provider (`SINO_PROVIDER_BASE_URLS`) replaces the
   * value; true when absent. A webhook URL is each integration's own: false.
   */
  replacedByBaseUrl?: boolean;
  /** `aws-region`: a region the AWS host is built from (`email.<region>.amazonaws.com`). */
  format?: 'aws-region';
}

/** One provider of the catalogue (the specification's "Provider catalogue entry"). */
export interface ProviderEntry {
  /** Novu 0.24's provider id, unique within the channel. */
  id: string;
  displayName: string;
  channel: Channel;
  /** In the order a form shows them. */
  credentials: CredentialField[];
  /** The provider's public documentation. */
  docReference: string;
  /** File names in this package's `logos/` folder (`@sino/providers/logos/<file>`). */
  logoFileName: { light: string; dark: string };
  betaVersion?: boolean;
}

/** The logo file names of a provider: `<id>.svg` and `<id>-dark.svg`, drawn by scripts/draw-logos.ts. */
export const logosOf = (id: string): ProviderEntry['logoFileName'] => ({
  light: `${id}.svg`,
  dark: `${id}-dark.svg`,
});

/**
 * The entry builder of one channel: `entryOf('sms')('twilio', 'Twilio', docs, [fields])`, the
 * logos named after the id, `betaVersion` only when set.
 */
export const entryOf =
  (channel: Channel) =>
  (
    id: string,
    displayName: string,
    docReference: string,
    credentials: CredentialField[] = [],
    betaVersion?: true,
  ): ProviderEntry => ({
    id,
    displayName,
    channel,
    credentials,
    docReference,
    logoFileName: logosOf(id),
    ...(betaVersion ? { betaVersion } : {}),
  });
