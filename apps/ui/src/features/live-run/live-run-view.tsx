export function LiveRunView() {
  return <section className="view" data-testid="live-run-view" />;
}
