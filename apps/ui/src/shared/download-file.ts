/** A file the backend rendered (ExportedFile) or the UI built, to hand to the user. */
export interface DownloadableFile {
  fileName: string;
  mimeType: string;
  content: string | Blob;
}

/**
 * A file name from a title: letters (any script) and digits kept, the rest runs of "-",
 * `taillab-` in front: "p99 latency against object size" → taillab-p99-latency-against-object-size.png.
 */
export function fileNameOf(title: string, extension: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `taillab-${slug || "chart"}.${extension}`;
}

/**
 * Saves a file through the browser's download: a Blob and a click on an <a download>. Electron
 * and the browser host both handle that (Electron asks where to save), so no host call is needed.
 */
export function downloadFile(file: DownloadableFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  clickDownloadLink(url, file.fileName);
  // The download has taken the Blob by the time the click returns; a delay keeps old engines safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Saves what the page's own host serves at `path` (the browser host's streamed downloads): the
 * browser writes it to disk as it arrives, named by the host's Content-Disposition.
 */
export function downloadFromHost(path: string): void {
  clickDownloadLink(path, "");
}

function clickDownloadLink(href: string, fileName: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
}
