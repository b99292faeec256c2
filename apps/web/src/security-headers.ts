/**
 * Browser features the UI never uses, all turned off, so that nothing running in the page (or
 * in a frame of it) can ask for them. Only features Chromium knows are named: an unknown one
 * costs a console warning on every page.
 */
const DISABLED_FEATURES = [
  "accelerometer",
  "autoplay",
  "camera",
  "display-capture",
  "encrypted-media",
  "geolocation",
  "gyroscope",
  "hid",
  "idle-detection",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "picture-in-picture",
  "publickey-credentials-get",
  "screen-wake-lock",
  "serial",
  "usb",
  "xr-spatial-tracking",
];

/**
 * Headers on every answer of the web host. The CSP allows what the UI's own meta policy allows
 * (inline styles from React and Chart.js, data:/blob: images) plus the run-event WebSocket of
 * this port, and nothing from anywhere else; framing is refused so no page can overlay the UI.
 */
export function securityHeaders(port: number): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    // The first URL carries the launch token: never hand it to another site.
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": DISABLED_FEATURES.map((feature) => `${feature}=()`).join(", "),
  };
}
