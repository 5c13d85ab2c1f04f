import { describe, expect, it } from 'vitest';
import { providers } from '@sino/providers/catalogue';
import {
  credentialsOf,
  formValuesOf,
  problemOf,
  schemaOf,
} from '../src/features/integrations/lib/credentials.js';
import type { CredentialField } from '../src/features/integrations/lib/catalogue.js';

const field = (type: CredentialField['type'], required = true): CredentialField => ({
  key: 'k',
  displayName: 'Value',
  type,
  required,
});

const smtp = providers.find((p) => p.channel === 'email' && p.id === 'nodemailer')!;

describe('the credential form of every type', () => {
  it('asks for a required value and lets an optional one be empty', () => {
    expect(problemOf(field('string'), '  ')).toBe('Enter the Value');
    expect(problemOf(field('password'), '')).toBe('Enter the Value');
    expect(problemOf(field('string', false), '')).toBeUndefined();
    expect(problemOf(field('switch'), false)).toBeUndefined();
  });

  it('checks numbers and JSON objects', () => {
    expect(problemOf(field('number'), '58x')).toBe('Value must be a number');
    expect(problemOf(field('number'), '587')).toBeUndefined();
    expect(problemOf(field('object'), '[1]')).toMatch(/must be a JSON object/);
    expect(problemOf(field('object'), '{"rejectUnauthorized": false}')).toBeUndefined();
  });

  it('sends numbers, on/off values and objects as their types, and leaves empty ones out', () => {
    const values = {
      ...formValuesOf(smtp.credentials),
      host: ' smtp.example.com ',
      port: '2525',
      secure: true,
      tlsOptions: '{"rejectUnauthorized": false}',
      from: 'no-reply@example.com',
      senderName: 'Example',
    };
    expect(credentialsOf(smtp.credentials, values)).toEqual({
      host: 'smtp.example.com',
      port: 2525,
      secure: true,
      requireTls: false,
      ignoreTls: false,
      tlsOptions: { rejectUnauthorized: false },
      from: 'no-reply@example.com',
      senderName: 'Example',
    });
  });

  it('keeps a long text as typed (a PEM key keeps its line breaks)', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n';
    expect(credentialsOf([{ ...field('text'), key: 'secretKey' }], { secretKey: pem })).toEqual({
      secretKey: pem,
    });
  });

  it("fills the form with the server's values, masked secrets and switches included", () => {
    expect(
      formValuesOf(smtp.credentials, { port: 587, requireTls: 'true', password: '••••••••abcd' }),
    ).toMatchObject({ port: '587', requireTls: true, password: '••••••••abcd', host: '' });
    const eu = providers.find((p) => p.id === 'sparkpost')!;
    expect(formValuesOf(eu.credentials, { region: 'eu' })).toMatchObject({ region: true });
  });

  it('names each missing required field, as the form shows them', () => {
    const result = schemaOf(smtp.credentials).safeParse(formValuesOf(smtp.credentials));
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual([
      'host: Enter the Host',
      'port: Enter the Port',
      'from: Enter the From',
      'senderName: Enter the Sender name',
    ]);
  });

  it('has a field type the form knows for every provider of the catalogue', () => {
    const types = new Set(providers.flatMap((p) => p.credentials.map((f) => f.type)));
    for (const type of types)
      expect(['string', 'number', 'boolean', 'switch', 'object', 'text', 'password']).toContain(
        type,
      );
  });
});
