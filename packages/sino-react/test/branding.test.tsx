// @vitest-environment jsdom
import { cleanup, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { brandingVariables } from '../src/branding.js';
import { renderInbox } from './render-inbox.js';
import { startSino, type SinoServer } from './sino-server.js';

/** The organisation's branding in the inbox's theme (issue 19), as Novu's notification centre. */
describe('brandingVariables', () => {
  it('takes a legible colour as the primary one, with the text on it that reads best', () => {
    expect(brandingVariables({ color: '#0b4f2a' }, 'light')).toEqual({
      '--sino-color-primary': '#0b4f2a',
      '--sino-color-on-primary': '#ffffff',
    });
    // On the dark theme's background a light colour is the legible one, with dark text on it.
    expect(brandingVariables({ color: '#ffd166' }, 'dark')).toEqual({
      '--sino-color-primary': '#ffd166',
      '--sino-color-on-primary': '#1a1d23',
    });
  });

  it('leaves out a colour that would not read as text on the background, or is no colour', () => {
    expect(brandingVariables({ color: '#ffd166' }, 'light')).toEqual({});
    expect(brandingVariables({ color: '#0b4f2a' }, 'dark')).toEqual({});
    expect(brandingVariables({ color: 'red; background: url(x)' }, 'light')).toEqual({});
  });

  it('takes a font name, never CSS', () => {
    expect(brandingVariables({ fontFamily: 'Inter' }, 'light')).toEqual({
      '--sino-font-family': 'Inter, system-ui, sans-serif',
    });
    expect(brandingVariables({ fontFamily: 'x; } body { display: none' }, 'light')).toEqual({});
    expect(brandingVariables(undefined, 'light')).toEqual({});
  });
});

describe('the inbox with the organisation branded', () => {
  let sino: SinoServer;
  beforeAll(async () => {
    sino = await startSino();
  });
  afterAll(() => sino.close());
  afterEach(() => cleanup());

  const root = () => document.querySelector<HTMLElement>('.sino');

  it("wears the organisation's colour and font, the host's variables win", async () => {
    const r = await sino.api('PUT', '/v1/organizations/branding', {
      color: '#0b4f2a',
      fontFamily: 'Inter',
    });
    expect(r.status).toBe(200);
    await sino.seed('b-branded', 1);
    renderInbox(sino, 'b-branded', 'center');
    await waitFor(() =>
      expect(root()?.style.getPropertyValue('--sino-color-primary')).toBe('#0b4f2a'),
    );
    expect(root()!.style.getPropertyValue('--sino-font-family')).toBe(
      'Inter, system-ui, sans-serif',
    );
    cleanup();

    renderInbox(sino, 'b-branded', 'center', {
      styles: { variables: { '--sino-color-primary': '#123456' } },
    });
    await waitFor(() => expect(root()?.style.getPropertyValue('--sino-font-family')).toBeTruthy());
    expect(root()!.style.getPropertyValue('--sino-color-primary')).toBe('#123456');
  });
});
