const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** An instant as the viewer reads it, in their time zone. */
export const when = (iso: string) => dateTime.format(new Date(iso));
