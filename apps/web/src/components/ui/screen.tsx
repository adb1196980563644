import type { ReactNode } from 'react';

/** The frame of every screen: one main landmark with the screen's heading. */
export function Screen({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <main className="screen" data-testid={testId}>
      <h1 className="screen__title">{title}</h1>
      {children}
    </main>
  );
}
