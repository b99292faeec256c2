export function CompareView({ runIds }: { runIds: string[] }) {
  return <section className="view" data-testid="compare-view" />;
}
