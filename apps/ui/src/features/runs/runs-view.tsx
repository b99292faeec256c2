export function RunsView() {
  return <section className="view" data-testid="runs-view" />;
}
