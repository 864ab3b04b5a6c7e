// What the import screens read and do (docs/api.md, "Import"). The import is online-only: offline the screens
// say so and keep the chosen file; every refusal becomes one message in the user's language (the server's,
// which it writes in the request's `Language`, or ours when it sent none). Network and storage live in
// import-store.ts.
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { useLocation } from 'wouter';
import { IMPORT_MAX_BYTES, type ImportField, type ImportPreview, type ImportReport } from '../../../domain/company';
import { hasPermission } from '../../../domain/permissions';
import { useCurrentUser } from '../../../lib/app-state';
import { useConnectivity, type Connectivity } from '../../../lib/connectivity';
import { saveFile } from '../../../lib/download';
import { useDialog } from '../../../ui/dialog';
import {
  ImportRequestError,
  importApi,
  pullAfterImport,
  recallReport,
  rememberReport,
  type ImportApi,
  type RememberedReport,
  type TemplateFormat,
  type UploadProgress,
} from './import-store';
import { detectedMapping, isMappingComplete, mappingFieldValue, withColumnField } from './mapping';

/** File types the import takes (docs/api.md): the picker's `accept` and the check before sending. */
export const IMPORT_ACCEPT = '.csv,.xlsx';
const ACCEPTED_EXTENSIONS = ['.csv', '.xlsx'];

/** Whether the signed-in user may import into this company (`people.manage`), and whether they belong to it. */
export function useImportAccess(companyId: string): { isMember: boolean; canImport: boolean } {
  const user = useCurrentUser();
  const roles = user.companies?.find((company) => company.id === companyId)?.roles;
  return { isMember: roles !== undefined, canImport: roles !== undefined && hasPermission(roles, 'people.manage') };
}

/** True only when the health probe says the server cannot be reached ('unknown' lets the user try). */
export function useIsOffline(connectivity?: Connectivity): boolean {
  return useConnectivity(connectivity) === 'offline';
}

/** What the import hooks reach outside React; the app's own unless a test passes its stand-ins. */
export interface ImportDeps {
  api?: ImportApi;
  connectivity?: Connectivity;
  /** Brings the imported employees into the mirror. */
  pull?: (ownerUserId: string, companyId: string) => Promise<void>;
}

/** The message a refusal shows: the server's own when it sent one, else ours for its status. */
export function problemMessage(intl: IntlShape, error: unknown): string {
  if (error instanceof ImportRequestError) {
    if (error.status === 0) {
      return intl.formatMessage({
        id: 'employees.import.error.noAnswer',
        defaultMessage: 'The server did not answer. Your file is still chosen: try again once you are back online.',
      });
    }
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 413) return tooLargeMessage(intl);
    if (error.status === 415) return wrongTypeMessage(intl);
    if (error.status === 400) {
      return intl.formatMessage({ id: 'employees.import.error.broken', defaultMessage: 'The file could not be read. Save it again as CSV or XLSX and try once more.' });
    }
    if (error.status >= 200 && error.status < 300) {
      return intl.formatMessage({ id: 'employees.import.error.badAnswer', defaultMessage: 'The server’s answer could not be read. Reload the page and try again.' });
    }
  } else {
    console.error('The import failed', error);
  }
  return intl.formatMessage({ id: 'employees.import.error.unknown', defaultMessage: 'Something went wrong on the server. Try again in a few minutes.' });
}

function tooLargeMessage(intl: IntlShape): string {
  return intl.formatMessage(
    { id: 'employees.import.error.tooLarge', defaultMessage: 'The file is larger than {size} MB. Split it into smaller files.' },
    { size: IMPORT_MAX_BYTES / (1024 * 1024) },
  );
}

function wrongTypeMessage(intl: IntlShape): string {
  return intl.formatMessage({ id: 'employees.import.error.fileType', defaultMessage: 'Choose a CSV or XLSX file.' });
}

/** Refuses on the device what the server would refuse anyway, before sending megabytes over a phone line. */
export function checkChosenFile(intl: IntlShape, file: File): string | null {
  const name = file.name.toLowerCase();
  if (!ACCEPTED_EXTENSIONS.some((extension) => name.endsWith(extension))) return wrongTypeMessage(intl);
  if (file.size > IMPORT_MAX_BYTES) return tooLargeMessage(intl);
  if (file.size === 0) return intl.formatMessage({ id: 'employees.import.error.empty', defaultMessage: 'The file is empty.' });
  return null;
}

export type ImportBusy = { action: 'check' | 'import'; progress: UploadProgress } | null;

export interface ImportFlow {
  file: File | null;
  preview: ImportPreview | null;
  mapping: (ImportField | null)[];
  busy: ImportBusy;
  /** The last refusal, in the user's language; the file stays chosen. */
  problem: string | null;
  /** Whether sending the same file again may help (no answer, or the server failed), not a refusal of the file. */
  isRetryable: boolean;
  isOffline: boolean;
  choose: (file: File | null) => void;
  /** Sends the file for the preview (dry run) again. */
  check: () => void;
  setColumnField: (index: number, field: ImportField | null) => void;
  /** Imports with the current mapping; resolves the report, or null when it was refused (see `problem`). */
  runImport: () => Promise<ImportReport | null>;
}

/** The import screen's steps: choose a file, preview and map its columns, import. */
export function useImportFlow(companyId: string, deps: ImportDeps = {}): ImportFlow {
  const { api = importApi, pull = pullAfterImport } = deps;
  const intl = useIntl();
  const user = useCurrentUser();
  const isOffline = useIsOffline(deps.connectivity);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<(ImportField | null)[]>([]);
  const [busy, setBusy] = useState<ImportBusy>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [wasUnanswered, setUnanswered] = useState(false);
  const [isRetryable, setRetryable] = useState(false);
  const running = useRef<AbortController | null>(null);
  /** The key of an import that got no answer, reused when the same file and mapping are sent again. */
  const retryKey = useRef<{ file: File; mapping: string; key: string } | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const start = () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    return controller;
  };

  const fail = useCallback(
    (error: unknown) => {
      setProblem(problemMessage(intl, error));
      setUnanswered(error instanceof ImportRequestError && error.status === 0);
      setRetryable(!(error instanceof ImportRequestError) || error.status === 0 || error.status >= 500);
    },
    [intl],
  );

  const checkFile = useCallback(
    async (chosen: File) => {
      const controller = start();
      setBusy({ action: 'check', progress: { stage: 'uploading', fraction: 0 } });
      setProblem(null);
      setUnanswered(false);
      try {
        const answer = await api.preview(companyId, {
          file: chosen,
          signal: controller.signal,
          onProgress: (progress) => {
            if (!controller.signal.aborted) setBusy({ action: 'check', progress });
          },
        });
        if (controller.signal.aborted) return;
        setPreview(answer);
        setMapping(detectedMapping(answer));
      } catch (error) {
        if (!controller.signal.aborted) fail(error);
      } finally {
        if (running.current === controller) {
          running.current = null;
          setBusy(null);
        }
      }
    },
    [api, companyId, fail],
  );

  const choose = useCallback(
    (chosen: File | null) => {
      running.current?.abort();
      running.current = null;
      setBusy(null);
      setPreview(null);
      setMapping([]);
      setUnanswered(false);
      setFile(chosen);
      if (!chosen) {
        setProblem(null);
        return;
      }
      const refusal = checkChosenFile(intl, chosen);
      setProblem(refusal);
      if (refusal === null && !isOffline) void checkFile(chosen);
    },
    [checkFile, intl, isOffline],
  );

  const check = useCallback(() => {
    if (file && checkChosenFile(intl, file) === null) void checkFile(file);
  }, [checkFile, file, intl]);

  // Back online after a preview that got no answer (or was never asked for): ask again by itself.
  // Only the change of connectivity starts it, not every render while the conditions hold.
  const recheckOnReconnect = useEffectEvent(() => {
    if (file !== null && preview === null && busy === null && (wasUnanswered || problem === null)) check();
  });
  useEffect(() => {
    if (!isOffline) recheckOnReconnect();
  }, [isOffline]);

  const setColumnField = useCallback((index: number, field: ImportField | null) => {
    setMapping((current) => withColumnField(current, index, field));
  }, []);

  const runImport = useCallback(async (): Promise<ImportReport | null> => {
    if (!file || !preview || !isMappingComplete(mapping)) return null;
    const mappingText = mappingFieldValue(mapping);
    const previous = retryKey.current;
    const key = previous && previous.file === file && previous.mapping === mappingText ? previous.key : crypto.randomUUID();
    retryKey.current = { file, mapping: mappingText, key };
    const controller = start();
    setBusy({ action: 'import', progress: { stage: 'uploading', fraction: 0 } });
    setProblem(null);
    setUnanswered(false);
    try {
      const report = await api.run(companyId, {
        file,
        mapping,
        idempotencyKey: key,
        signal: controller.signal,
        onProgress: (progress) => {
          if (!controller.signal.aborted) setBusy({ action: 'import', progress });
        },
      });
      retryKey.current = null;
      rememberReport(sessionStorage, user.id, { report, headers: headersOf(preview) });
      pull(user.id, companyId).catch((error: unknown) => console.error('Could not pull the imported employees', error));
      return report;
    } catch (error) {
      // Refused for good: a corrected file or mapping gets a new key anyway; only a lost answer keeps it.
      if (!(error instanceof ImportRequestError && error.status === 0)) retryKey.current = null;
      if (!controller.signal.aborted) fail(error);
      return null;
    } finally {
      if (running.current === controller) {
        running.current = null;
        setBusy(null);
      }
    }
  }, [api, companyId, fail, file, mapping, preview, pull, user.id]);

  return { file, preview, mapping, busy, problem, isRetryable: problem !== null && isRetryable, isOffline, choose, check, setColumnField, runImport };
}

/** The file's headers in column order, for the CSV of rejected rows. */
function headersOf(preview: ImportPreview): string[] {
  const headers: string[] = [];
  for (const column of preview.columns) headers[column.index] = column.header;
  return Array.from({ length: headers.length }, (_, i) => headers[i] ?? '');
}

/** Downloads the template in the app's language; `pending` says which format is on its way. */
export function useTemplateDownload(
  companyId: string,
  api: ImportApi = importApi,
): { download(format: TemplateFormat): Promise<void>; pending: TemplateFormat | null; problem: string | null } {
  const intl = useIntl();
  const [pending, setPending] = useState<TemplateFormat | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const download = useCallback(
    async (format: TemplateFormat) => {
      setPending(format);
      setProblem(null);
      try {
        const { blob, fileName } = await api.template(companyId, format);
        saveFile(blob, fileName);
      } catch (error) {
        setProblem(
          error instanceof ImportRequestError && error.status === 0
            ? intl.formatMessage({ id: 'employees.import.template.offline', defaultMessage: 'The template could not be downloaded: there is no connection to the server.' })
            : problemMessage(intl, error),
        );
      } finally {
        setPending(null);
      }
    },
    [api, companyId, intl],
  );
  return { download, pending, problem };
}

export type ReportState =
  | { kind: 'loading' }
  | ({ kind: 'ready' } & RememberedReport)
  /** Not kept on this device, and the server cannot be reached. */
  | { kind: 'offline' }
  | { kind: 'failed'; message: string };

/** The report of one import: the copy this tab kept, else the server's (then kept too). */
export function useImportReport(companyId: string, importId: string, deps: ImportDeps = {}): ReportState {
  const { api = importApi } = deps;
  const intl = useIntl();
  const user = useCurrentUser();
  const isOffline = useIsOffline(deps.connectivity);
  const [kept] = useState(() => recallReport(sessionStorage, user.id, companyId, importId));
  const [state, setState] = useState<ReportState>(() => (kept ? { kind: 'ready', ...kept } : { kind: 'loading' }));

  useEffect(() => {
    const remembered = recallReport(sessionStorage, user.id, companyId, importId);
    if (remembered) {
      setState({ kind: 'ready', ...remembered });
      return;
    }
    if (isOffline) {
      setState({ kind: 'offline' });
      return;
    }
    let isCurrent = true;
    setState({ kind: 'loading' });
    api.report(companyId, importId).then(
      (report) => {
        if (!isCurrent) return;
        rememberReport(sessionStorage, user.id, { report, headers: null });
        setState({ kind: 'ready', report, headers: null });
      },
      (error: unknown) => {
        if (!isCurrent) return;
        if (error instanceof ImportRequestError && error.status === 0) setState({ kind: 'offline' });
        else if (error instanceof ImportRequestError && error.status === 404) {
          setState({ kind: 'failed', message: intl.formatMessage({ id: 'employees.importReport.notFound', defaultMessage: 'There is no such import in this company.' }) });
        } else setState({ kind: 'failed', message: problemMessage(intl, error) });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [api, companyId, importId, intl, isOffline, user.id]);

  return state;
}

/**
 * While `isActive`, asks before the page is left: the browser's own question on reload or close, and the app's
 * confirm dialog for a click on a link of the app (the click is held back until the user answers).
 */
export function useLeaveGuard(isActive: boolean): void {
  const intl = useIntl();
  const dialog = useDialog();
  const [, navigate] = useLocation();

  useEffect(() => {
    if (!isActive) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download') || (link.target !== '' && link.target !== '_self')) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      event.stopPropagation();
      void dialog
        .confirm({
          title: intl.formatMessage({ id: 'employees.import.leave.title', defaultMessage: 'Leave while the import runs?' }),
          content: intl.formatMessage({
            id: 'employees.import.leave.text',
            defaultMessage: 'The file is still being imported. If you leave now, you will not see its report here.',
          }),
          confirmText: intl.formatMessage({ id: 'employees.import.leave.confirm', defaultMessage: 'Leave' }),
          closeText: intl.formatMessage({ id: 'employees.import.leave.stay', defaultMessage: 'Stay' }),
        })
        .then((leave) => {
          if (leave) navigate(`${url.pathname}${url.search}${url.hash}`);
        });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dialog, intl, isActive, navigate]);
}

/**
 * Saves the report's rejected rows as a CSV file in the user's language (see rejected-csv.ts). The CSV writer
 * (papaparse) is fetched on the click, so the report page does not carry it; it is in the service worker's
 * precache, so the click works offline too. Should it still not load, `failed` says so (the page shows it) and
 * the click can be tried again.
 */
export function useRejectedRowsDownload(
  report: ImportReport | null,
  headers: readonly string[] | null,
): { download: () => void; failed: boolean } {
  const intl = useIntl();
  const [failed, setFailed] = useState(false);
  const download = useCallback(() => {
    if (!report) return;
    setFailed(false);
    import('./rejected-csv').then(
      ({ rejectedRowsCsv }) => {
        const csv = rejectedRowsCsv(report.rejected, {
          headers,
          locale: intl.locale,
          labels: {
            row: intl.formatMessage({ id: 'employees.importReport.csv.row', defaultMessage: 'Row' }),
            reason: intl.formatMessage({ id: 'employees.importReport.csv.reason', defaultMessage: 'Reason' }),
            column: (number) => intl.formatMessage({ id: 'employees.import.mapping.unnamedColumn', defaultMessage: 'Column {number}' }, { number }),
          },
        });
        const base = report.fileName.replace(/\.[^.]+$/, '') || 'import';
        const fileName = intl.formatMessage({ id: 'employees.importReport.csv.fileName', defaultMessage: '{name} - rejected rows.csv' }, { name: base });
        saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName);
      },
      (error: unknown) => {
        console.warn('The CSV writer could not be loaded.', error);
        setFailed(true);
      },
    );
  }, [headers, intl, report]);
  return { download, failed };
}
