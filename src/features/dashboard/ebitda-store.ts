// The financial director's EBITDA months (`GET` / `PUT /companies/{companyId}/ebitda`), online only: the server
// keeps EBITDA, the device does not. Loaded with the EBITDA form (form-hooks.ts), never with the dashboard page.
// Guarantees: an answer that does not match its struct is refused (DashboardAnswerError); a submission keeps one
// Idempotency-Key until it succeeds (src/lib/submission-key.ts), so a retry after no answer is the same request
// to the server.
import { array, nullable, type } from 'superstruct';
import { EbitdaRow, type EbitdaInput } from '../../domain/dashboard';
import type { HttpClient } from '../../lib/http';
import { idempotencyHeaders, submitOnce, type SubmissionKeys } from '../../lib/submission-key';
import { DashboardAnswerError, companyPath } from './figures-store';

/** What the EBITDA calls need of the transport: the JSON calls `get` and `put` of the app's HttpClient. */
export type EbitdaTransport = Pick<HttpClient, 'get' | 'put'>;

const EbitdaRowsAnswer = type({ data: array(EbitdaRow) });
const EbitdaSaveAnswer = type({ data: nullable(EbitdaRow) });

/** The EBITDA entered for the months `from`..`to` ('YYYY-MM', both inclusive). */
export async function listEbitda(http: Pick<EbitdaTransport, 'get'>, companyId: string, from: string, to: string): Promise<EbitdaRow[]> {
  const answer = await http.get(`${companyPath(companyId)}/ebitda`, { from, to }, { minDuration: 0 });
  if (!EbitdaRowsAnswer.is(answer)) throw new DashboardAnswerError('The server answered EBITDA rows that do not match their struct');
  return answer.data;
}

/** Enters (or, with `amountMinor: null`, clears) one month's EBITDA; resolves with the row kept (null: cleared). */
export function saveEbitda(http: Pick<EbitdaTransport, 'put'>, companyId: string, input: EbitdaInput, keys?: SubmissionKeys): Promise<EbitdaRow | null> {
  const path = `${companyPath(companyId)}/ebitda`;
  return submitOnce(
    { method: 'PUT', path, body: input },
    async (key) => {
      const answer = await http.put(path, input, idempotencyHeaders(key));
      if (!EbitdaSaveAnswer.is(answer)) throw new DashboardAnswerError('The server answered an EBITDA row that does not match its struct');
      return answer.data;
    },
    keys,
  );
}
