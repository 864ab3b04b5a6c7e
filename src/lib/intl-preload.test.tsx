// Its own file: preloadCatalogues primes the app's one catalogue store, which every later AppIntlProvider without
// test loaders would then share.
import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { useIntl } from 'react-intl';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppIntlProvider, preloadCatalogues, setCatalogueAreasFor } from './intl';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

function Title() {
  const intl = useIntl();
  // In Russian: the text can only come from the loaded catalogue, not from the English default.
  return <h1>{intl.formatMessage({ id: 'auth.login.title', defaultMessage: 'Sign in' })}</h1>;
}

describe('preloadCatalogues', () => {
  it("renders the first screen with the stored language's messages at once, never through the loading fallback", async () => {
    window.localStorage.setItem('appLocale', 'ru');
    setCatalogueAreasFor(() => ['auth', 'signin']);
    await preloadCatalogues('/auth/login');
    const fallback = vi.fn(() => <p>Loading</p>);
    const Fallback = fallback as ComponentType;
    render(
      <Router hook={memoryLocation({ path: '/auth/login' }).hook}>
        <AppIntlProvider fallback={<Fallback />}>
          <Title />
        </AppIntlProvider>
      </Router>,
    );
    expect(screen.getByRole('heading', { name: 'Вход' })).toBeTruthy();
    expect(fallback).not.toHaveBeenCalled();
  });
});
