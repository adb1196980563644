import { render, screen } from '@testing-library/preact';
import * as Compat from 'preact/compat';
import * as CompatClient from 'preact/compat/client';
import { useState } from 'preact/hooks';
import * as React from 'react';
import * as ReactDom from 'react-dom';
import * as ReactDomClient from 'react-dom/client';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';

/**
 * One UI runtime (ADR 125): these tests render with what the production build ships, Preact through
 * `preact/compat` (scripts/ui-runtime.test.ts checks the build's side), not React and not a module
 * standing in for it.
 */
describe('the runtime the web unit tests render with', () => {
  it('resolves react and react-dom to preact/compat itself', () => {
    expect(React).toBe(Compat);
    expect(ReactDom).toBe(Compat);
    expect(ReactDomClient).toBe(CompatClient);
    expect(React.useState).toBe(useState);
  });

  it('gives dependencies that import react the same Preact (a React Router hook renders here)', () => {
    function Where() {
      return <p>{useLocation().pathname}</p>;
    }
    render(
      <MemoryRouter initialEntries={['/roots/webapp']}>
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByText('/roots/webapp')).toBeTruthy();
  });
});
