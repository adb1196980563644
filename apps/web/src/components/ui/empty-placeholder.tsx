/** What a lazily loaded screen shows while its code loads: an empty, busy region. */
export function EmptyPlaceholder() {
  return <div className="empty-placeholder" aria-busy="true" data-testid="screen-loading" />;
}
