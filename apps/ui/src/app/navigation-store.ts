import { create } from "zustand";

/** The screens of the app; the address bar's hash mirrors the current one (`#/runs/<id>`). */
export type Route =
  | { view: "endpoints" }
  | { view: "experiments" }
  | { view: "live" }
  | { view: "runs" }
  | { view: "run"; runId: string }
  | { view: "compare"; runIds: string[] };

export type View = Route["view"];

interface NavigationState {
  route: Route;
  navigate(route: Route): void;
}

export function routeToHash(route: Route): string {
  switch (route.view) {
    case "run":
      return `#/runs/${encodeURIComponent(route.runId)}`;
    case "compare":
      return `#/compare/${route.runIds.map(encodeURIComponent).join(",")}`;
    default:
      return `#/${route.view}`;
  }
}

export function hashToRoute(hash: string): Route {
  const [view = "", arg = ""] = hash.replace(/^#\/?/, "").split("/");
  switch (view) {
    case "endpoints":
    case "experiments":
    case "live":
      return { view };
    case "runs":
      return arg ? { view: "run", runId: decodePart(arg) } : { view: "runs" };
    case "compare":
      return { view: "compare", runIds: arg ? arg.split(",").map(decodePart) : [] };
    default:
      return { view: "experiments" };
  }
}

/** A typed hash may hold a stray `%`: keep the text as typed rather than fail to open the app. */
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export const useNavigation = create<NavigationState>((set) => ({
  route: hashToRoute(typeof location === "undefined" ? "" : location.hash),
  navigate(route) {
    const hash = routeToHash(route);
    if (location.hash !== hash) history.pushState(null, "", hash);
    set({ route });
  },
}));

/** Back and forward buttons (and a typed hash) move between screens too. */
export function followAddressBar(): () => void {
  const onPop = () => useNavigation.setState({ route: hashToRoute(location.hash) });
  window.addEventListener("popstate", onPop);
  return () => window.removeEventListener("popstate", onPop);
}
