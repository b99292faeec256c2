export function EndpointsView() {
  return <section className="view" data-testid="endpoints-view" />;
}
