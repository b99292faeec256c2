/** A file the backend rendered (ExportedFile) or the UI built, to hand to the user. */
export interface DownloadableFile {
  fileName: string;
  mimeType: string;
  content: string;
}

/**
 * Saves a file through the browser's download: a Blob and a click on an <a download>. Electron
 * and the browser host both handle that (Electron asks where to save), so no host call is needed.
 */
export function downloadFile(file: DownloadableFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the Blob by the time the click returns; a delay keeps old engines safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
