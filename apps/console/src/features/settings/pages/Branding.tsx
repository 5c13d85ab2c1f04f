import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contrast, rgb } from '@sino/js/contrast';
import { colourOf, contrastWarnings, PREVIEW_DEFAULTS, type BrandingValues } from '../lib/format';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { Field } from '../../../components/Field';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { useOrganization, useRole, type Branding as BrandingData } from '../lib/queries';

type Values = BrandingValues;
type Key = keyof Values;

const FIELDS: { key: Key; label: string; hint: string; placeholder: string }[] = [
  {
    key: 'logo',
    label: 'Logo URL',
    hint: 'An https address of a jpg, png, gif or svg image.',
    placeholder: 'https://example.com/logo.png',
  },
  {
    key: 'color',
    label: 'Brand color',
    hint: 'Buttons and links, such as #5b21b6.',
    placeholder: '#5b21b6',
  },
  { key: 'fontColor', label: 'Text color', hint: 'Such as #18181b.', placeholder: '#18181b' },
  {
    key: 'contentBackground',
    label: 'Content background',
    hint: 'Behind the text, such as #ffffff.',
    placeholder: '#ffffff',
  },
  {
    key: 'fontFamily',
    label: 'Font',
    hint: 'Font names separated by commas, such as Inter, Arial.',
    placeholder: 'Inter, Arial',
  },
];

const valuesOf = (branding: BrandingData | undefined): Values => ({
  logo: branding?.logo ?? '',
  color: branding?.color ?? '',
  fontColor: branding?.fontColor ?? '',
  contentBackground: branding?.contentBackground ?? '',
  fontFamily: branding?.fontFamily ?? '',
});

/** The organisation's branding, which its e-mails' layouts read, with a live preview. */
export function Branding() {
  const organization = useOrganization();
  const role = useRole();
  if (organization.isPending || role.isPending) return <Loading label="Loading the branding…" />;
  if (organization.isError)
    return (
      <ErrorState message={organization.error.message} retry={() => void organization.refetch()} />
    );
  if (role.isError)
    return <ErrorState message={role.error.message} retry={() => void role.refetch()} />;
  return (
    <BrandingForm
      key={organization.data._id}
      initial={valuesOf(organization.data.branding)}
      organizationName={organization.data.name}
      direction={organization.data.branding?.direction}
      canEdit={role.data === 'admin'}
    />
  );
}

function BrandingForm({
  initial,
  organizationName,
  direction,
  canEdit,
}: {
  initial: Values;
  organizationName: string;
  direction: 'ltr' | 'rtl' | undefined;
  canEdit: boolean;
}) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(initial);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      api('/v1/organizations/branding', {
        method: 'PUT',
        // An emptied field is no branding for it (the server's null).
        body: Object.fromEntries(
          Object.entries(values).map(([k, v]) => [k, v.trim() === '' ? null : v.trim()]),
        ),
      }),
    onSuccess: () => {
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: ['organization', token] });
    },
  });
  const warnings = contrastWarnings(values);
  const set = (key: Key, value: string) => {
    setSaved(false);
    setValues((previous) => ({ ...previous, [key]: value }));
  };

  return (
    <section aria-labelledby="branding-title" className="settings-panel">
      <h2 id="branding-title">Branding</h2>
      <p className="muted">
        Your organization's logo, colors and font, which the e-mail layouts use.
        {!canEdit && ' Only admins change them.'}
      </p>
      <div className="branding-grid">
        <form
          className="card form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate();
          }}
        >
          <fieldset disabled={!canEdit} className="plain-fieldset form">
            <legend className="visually-hidden">Branding</legend>
            {FIELDS.map((field) => (
              <Field
                key={field.key}
                label={field.label}
                hint={field.hint}
                placeholder={field.placeholder}
                value={values[field.key]}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => set(field.key, event.target.value)}
              />
            ))}
          </fieldset>
          {warnings.length > 0 && (
            <div className="alert alert-warning" role="status" data-testid="contrast-warning">
              {warnings.map((warning) => (
                <p key={warning}>{warning}</p>
              ))}
            </div>
          )}
          <FormAlert message={save.error?.message} />
          {saved && <FormNotice message="The branding was saved." />}
          {canEdit && (
            <div>
              <button type="submit" className="button button-primary" disabled={save.isPending}>
                {save.isPending ? 'Saving…' : 'Save branding'}
              </button>
            </div>
          )}
        </form>
        <Preview values={values} organizationName={organizationName} direction={direction} />
      </div>
    </section>
  );
}

/** What an e-mail looks like with these values, as they are typed. */
function Preview({
  values,
  organizationName,
  direction,
}: {
  values: Values;
  organizationName: string;
  direction: 'ltr' | 'rtl' | undefined;
}) {
  const color = colourOf(values.color) ?? PREVIEW_DEFAULTS.color;
  const fontColor = colourOf(values.fontColor) ?? PREVIEW_DEFAULTS.fontColor;
  const background = colourOf(values.contentBackground) ?? PREVIEW_DEFAULTS.contentBackground;
  const brand = rgb(color)!;
  // The button's own text: white or near-black, whichever reads better on the brand colour.
  const onBrand =
    contrast(brand, rgb('#ffffff')!) >= contrast(brand, rgb('#18181b')!) ? '#ffffff' : '#18181b';
  const font = /^[\p{L}\p{N} ,'._-]{1,200}$/u.test(values.fontFamily.trim())
    ? `${values.fontFamily.trim()}, system-ui, sans-serif`
    : undefined;
  const logo = values.logo.trim();
  return (
    <figure className="card branding-preview-card">
      <figcaption className="hint">Preview</figcaption>
      <div
        className="branding-preview"
        data-testid="branding-preview"
        dir={direction}
        style={{ background, color: fontColor, fontFamily: font }}
      >
        {/* The console's policy loads no outside image: the logo's address stands in for it. */}
        {logo.startsWith('data:image/') ? (
          <img src={logo} alt={`${organizationName} logo`} className="preview-logo" />
        ) : logo ? (
          <p className="preview-logo-placeholder">Logo: {hostOf(logo)}</p>
        ) : (
          <p className="preview-logo-placeholder">{organizationName}</p>
        )}
        <p className="preview-title" style={{ color }}>
          Your order has shipped
        </p>
        <p>Hello Ada, your package is on its way and arrives on Thursday.</p>
        <span className="preview-button" style={{ background: color, color: onBrand }}>
          Track the package
        </span>
      </div>
    </figure>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
