import { describe, expect, it } from 'vitest';
import { contrastWarnings, describeAction, masked } from '../src/features/settings/lib/format.js';

const branding = {
  logo: '',
  color: '',
  fontColor: '',
  contentBackground: '',
  fontFamily: '',
};

describe('masked', () => {
  it('keeps four characters of each end of a key and hides the rest', () => {
    const key = '0123456789abcdef0123456789abcdef';
    expect(masked(key)).toBe('0123••••••••cdef');
    expect(masked(key)).not.toContain('456789');
  });

  it('hides a short value whole', () => {
    expect(masked('abcdefgh')).toBe('••••••••');
  });
});

describe('contrastWarnings', () => {
  it('says nothing of the defaults, nor of dark text on white', () => {
    expect(contrastWarnings(branding)).toEqual([]);
    expect(contrastWarnings({ ...branding, fontColor: '#1f2933', color: '0b4f2a' })).toEqual([]);
  });

  it('names each pair under 4.5:1 with its ratio, the colour read with or without #', () => {
    const warnings = contrastWarnings({ ...branding, fontColor: 'cccccc', color: '#ffd166' });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^The text color .* 1\.61:1/);
    expect(warnings[1]).toMatch(/^The brand color .* 1\.4\d:1/);
  });

  it('checks against the background typed: white text on a dark background passes', () => {
    expect(
      contrastWarnings({
        ...branding,
        fontColor: '#ffffff',
        contentBackground: '#111111',
        color: '#ffd166',
      }),
    ).toEqual([]);
    expect(contrastWarnings({ ...branding, contentBackground: '#111111' })).toHaveLength(2);
  });
});

describe('describeAction', () => {
  it('reads the known actions in words and the others from their names', () => {
    expect(describeAction('member.role_changed')).toBe("Changed a member's role");
    expect(describeAction('integration.updated')).toBe('Integration updated');
  });
});
