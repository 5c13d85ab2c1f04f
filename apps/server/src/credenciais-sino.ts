import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AdminCredentials, DevelopmentCredentials } from '@sino/core';

/** Writes text straight to the operator's terminal, outside the log stream. */
export type Terminal = (texto: string) => void;

/**
 * The first start's Sino credentials: written to `<dataDir>/sino-development.json` (mode 600),
 * the only place the API key can be read again, and shown once on the operator's terminal.
 * The log stream gets where they are, never the key: log lines are shipped and kept elsewhere.
 */
export function guardarCredenciaisSino(
  dataDir: string,
  credenciais: DevelopmentCredentials,
  log: FastifyBaseLogger,
  terminal: Terminal | undefined,
): void {
  const arquivo = join(dataDir, 'sino-development.json');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(arquivo, `${JSON.stringify(credenciais, null, 2)}\n`, { mode: 0o600 });
  terminal?.(avisoDoPrimeiroInicio(credenciais, arquivo));
  log.info(
    {
      applicationIdentifier: credenciais.applicationIdentifier,
      arquivo,
      requiresSubscriberHash: credenciais.requiresSubscriberHash,
    },
    terminal
      ? 'Sino: development environment created; its API key was shown once on the terminal and is kept in the file'
      : 'Sino: development environment created; its API key is kept in the file (no terminal to show it on)',
  );
  if (!credenciais.requiresSubscriberHash) {
    log.warn(
      "Sino: widget sessions of the development environment do not require the subscriber's hash; anyone who knows the application identifier can open any subscriber's inbox",
    );
  }
}

function avisoDoPrimeiroInicio(c: DevelopmentCredentials, arquivo: string): string {
  const hmac = c.requiresSubscriberHash
    ? [
        '  Widget sessions require subscriberHash = hex(HMAC-SHA256(API key, subscriberId)),',
        '  computed on your server, never in the browser.',
      ]
    : [
        "  Widget sessions of this Development environment do not require the subscriber's hash:",
        "  anyone who knows the application identifier can open any subscriber's inbox.",
        '  Production environments require subscriberHash = hex(HMAC-SHA256(API key, subscriberId)).',
      ];
  return [
    '',
    'Sino: first start, development environment created.',
    `  Application identifier: ${c.applicationIdentifier}`,
    `  API key:                ${c.apiKey}`,
    ...(c.production
      ? [
          `  Production (promoted from Development; sessions always require subscriberHash):`,
          `    Application identifier: ${c.production.applicationIdentifier}`,
          `    API key:                ${c.production.apiKey}`,
        ]
      : []),
    `  The API keys are shown only now; they are kept in ${arquivo} (mode 600).`,
    ...hmac,
    '',
    '',
  ].join('\n');
}

/**
 * The admin accounts a start made for Sino's console (the first start, or the first after an
 * upgrade): a generated password is written to `<dataDir>/sino-admin.json` (mode 600) and
 * shown once on the terminal; the log says where, never the password nor the address.
 */
export function guardarAdminsSino(
  dataDir: string,
  admins: AdminCredentials[],
  log: FastifyBaseLogger,
  terminal: Terminal | undefined,
): void {
  for (const admin of admins) {
    if (admin.password === undefined) {
      // The address is personal data: the log says what happened, not to whom.
      log.info('Sino: console admin created with the address and the secret the operator set');
      continue;
    }
    const arquivo = join(dataDir, 'sino-admin.json');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(arquivo, `${JSON.stringify(admin, null, 2)}\n`, { mode: 0o600 });
    terminal?.(
      [
        '',
        "Sino: the console's admin account was created.",
        `  E-mail:   ${admin.email}`,
        `  Password: ${admin.password}`,
        `  The password is shown only now; it is kept in ${arquivo} (mode 600). Change it after signing in.`,
        '',
        '',
      ].join('\n'),
    );
    log.info(
      { arquivo },
      terminal
        ? 'Sino: console admin created; its password was shown once on the terminal and is kept in the file'
        : 'Sino: console admin created; its password is kept in the file (no terminal to show it on)',
    );
  }
}
