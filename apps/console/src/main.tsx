import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/Providers';
import { router } from './app/router';
import { applyTheme, storedTheme } from './lib/theme';
import './styles.css';

// The person's theme before the first paint (an inline script would break the policy).
applyTheme(storedTheme());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
