import type { ReactNode } from 'react';

/** The frame of the signed-out pages: a landmark, the page's heading, the form. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <p className="brand">Sino</p>
        <h1 id="auth-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}
