export function ExperimentsView() {
  return <section className="view" data-testid="experiments-view" />;
}
