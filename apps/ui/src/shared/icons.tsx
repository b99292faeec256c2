import type { ReactNode } from "react";

/**
 * Small icons drawn inline, sized to the text around them (1em) and in its colour: Unicode
 * glyphs such as ▶ and ▣ come out at a different size in every font.
 */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export function PlayIcon() {
  return (
    <Icon>
      <path d="M4 2.5v11l9.5-5.5z" fill="currentColor" />
    </Icon>
  );
}

export function StopIcon() {
  return (
    <Icon>
      <rect x="3" y="3" width="10" height="10" rx="1.5" fill="currentColor" />
    </Icon>
  );
}

/** Projector mode: a screen on a stand. */
export function ProjectorIcon() {
  return (
    <Icon>
      <rect x="1.5" y="2" width="13" height="9" rx="1" fill="none" stroke="currentColor" />
      <path d="M8 11v3M5 14h6" fill="none" stroke="currentColor" strokeLinecap="round" />
    </Icon>
  );
}

export function MoonIcon() {
  return (
    <Icon>
      <path d="M13.5 10A6 6 0 0 1 6 2.5a6 6 0 1 0 7.5 7.5z" fill="currentColor" />
    </Icon>
  );
}

export function SunIcon() {
  return (
    <Icon>
      <circle cx="8" cy="8" r="3" fill="currentColor" />
      <path
        d="M8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6 13 13M3 13l1.4-1.4M11.6 4.4 13 3"
        fill="none"
        stroke="currentColor"
        strokeLinecap="round"
      />
    </Icon>
  );
}

/** Passed, done: the same tick in every font and language (a glyph comes out as ✓ or √). */
export function CheckIcon() {
  return (
    <Icon>
      <path
        d="M3 8.5l3.2 3.2L13 4.8"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Icon>
  );
}

export function CrossIcon() {
  return (
    <Icon>
      <path
        d="M4 4l8 8M12 4l-8 8"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </Icon>
  );
}

/** Not tried: a dash. */
export function DashIcon() {
  return (
    <Icon>
      <path d="M4 8h8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </Icon>
  );
}
