// Handing a file to the browser's downloads (the verification invoice, the import template, rejected rows).

/** An `<a download>` on an object URL, clicked, then the URL revoked once the download has taken the data. */
export function saveFile(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  doc.body.append(link);
  link.click();
  link.remove();
  // Some browsers start reading the URL only after the click handler returns; a minute leaves room for slow devices.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
