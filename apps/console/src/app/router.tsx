import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import SignIn from '../features/auth/pages/SignIn';
import { RequireSession, RouteError, NotFound, SignedOutOnly } from './Guards';
import { Layout } from './Layout';
import { firstSection, sections } from './sections';

type Page = { default: ComponentType };
const page =
  (load: () => Promise<Page>): RouteObject['lazy'] =>
  async () => ({
    Component: (await load()).default,
  });

// Sign-in is in the first bundle (it is the first page most visits see); every other page
// and each section is a chunk of its own, loaded when opened.
const signedOutPages: RouteObject[] = [
  { path: 'sign-in', element: <SignIn /> },
  { path: 'sign-up', lazy: page(() => import('../features/auth/pages/SignUp')) },
  { path: 'forgot-password', lazy: page(() => import('../features/auth/pages/ForgotPassword')) },
];

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <SignedOutOnly />,
        children: signedOutPages,
      },
      // The links the platform mails (platform-mail.ts): they work signed in or out.
      {
        path: 'accept-invitation',
        lazy: page(() => import('../features/auth/pages/AcceptInvitation')),
      },
      { path: 'reset-password', lazy: page(() => import('../features/auth/pages/ResetPassword')) },
      { path: 'verify-email', lazy: page(() => import('../features/auth/pages/VerifyEmail')) },
      {
        element: (
          <RequireSession>
            <Layout />
          </RequireSession>
        ),
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to={`/${firstSection.path}`} replace /> },
          ...sections.map((s) => ({
            path: s.subpages ? `${s.path}/*` : s.path,
            lazy: page(s.load),
          })),
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/console' });
