export function RunDetailView({ runId }: { runId: string }) {
  return <section className="view" data-testid="run-detail-view" />;
}
