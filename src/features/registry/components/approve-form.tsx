// The owner's review of a SENT registry: each project with its calculated cost, effect and remuneration; an
// adjusted final cost per project (typed as an amount; empty keeps the calculated cost) with a reason that is
// required once the cost differs; the totals, estimated against final, per currency, following the typing; an
// optional comment. "Approve" and "Return" (the return asks for its required comment in a dialog) are stored on the
// device and sent by the outbox, so they work offline. Field errors stand beside their fields, in the user's
// language; nothing is stored while one is shown.
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useLocation } from 'wouter';
import type { AmountParseCode } from '../../../domain/money';
import { minorToAmountText } from '../../../domain/money';
import { paths } from '../../../domain/paths';
import { REGISTRY_COMMENT_MAX, REGISTRY_REASON_MAX, type Registry, type RegistryApproveInput } from '../../../domain/registry';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { FormError } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import { useRegistryActions } from '../hooks';
import { checkAdjustment, draftTotals, separatorOf, type AdjustmentDraft } from './registry-format';
import { MoneyText, TotalsTable } from './registry-parts';
import { askReturnComment } from './return-dialog';

/** Gives the control inside a UI kit field the browser tests' data-testid (the kit's fields take no extra attributes). */
function ControlTestId({ testId, children }: { testId: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.querySelector('input, textarea')?.setAttribute('data-testid', testId);
  });
  return (
    <div ref={ref} className="registry-adjust__field">
      {children}
    </div>
  );
}

function amountMessage(intl: IntlShape, code: AmountParseCode): string {
  switch (code) {
    case 'invalid':
      return intl.formatMessage({ id: 'registry.amount.invalid', defaultMessage: 'Type an amount, such as 1250 or 1250,50.' });
    case 'amountPrecision':
      return intl.formatMessage({ id: 'registry.amount.precision', defaultMessage: 'At most 2 digits after the decimal point.' });
    case 'amountRange':
      return intl.formatMessage({ id: 'registry.amount.range', defaultMessage: 'This amount is too large.' });
  }
}

const costField = (projectId: string) => `cost.${projectId}`;
const reasonField = (projectId: string) => `reason.${projectId}`;

export interface ApproveFormProps {
  companyId: string;
  registry: Registry;
}

export function ApproveForm({ companyId, registry }: ApproveFormProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const [, navigate] = useLocation();
  const actions = useRegistryActions(companyId);
  const [drafts, setDrafts] = useState<Readonly<Record<string, AdjustmentDraft>>>({});
  const [comment, setComment] = useState('');
  /** Fields whose errors show: left once (blur), or all of them after an attempt to approve. */
  const [visited, setVisited] = useState<ReadonlySet<string>>(new Set());
  const [isAttempted, setAttempted] = useState(false);
  /** Errors the store answered (already in the user's language), by field, until the field changes. */
  const [refused, setRefused] = useState<Readonly<Record<string, string>>>({});
  const [busy, setBusy] = useState<'approve' | 'return' | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const separator = separatorOf(intl);

  const checks = useMemo(() => new Map(registry.items.map((item) => [item.projectId, checkAdjustment(item, drafts[item.projectId])])), [registry.items, drafts]);
  const totals = useMemo(() => draftTotals(registry.items, drafts), [registry.items, drafts]);
  const adjustedCount = [...checks.values()].filter((check) => check.finalCostMinor !== null).length;

  const isShown = (field: string) => isAttempted || visited.has(field);
  const visit = (field: string) => setVisited((current) => new Set(current).add(field));
  const clearRefused = (field: string) =>
    setRefused((current) => {
      if (!(field in current)) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });

  const change = (projectId: string, part: keyof AdjustmentDraft, value: string) => {
    setDrafts((current) => ({ ...current, [projectId]: { cost: current[projectId]?.cost ?? '', reason: current[projectId]?.reason ?? '', [part]: value } }));
    clearRefused(part === 'cost' ? costField(projectId) : reasonField(projectId));
  };

  const costErrorOf = (projectId: string): string | undefined => {
    const check = checks.get(projectId);
    if (refused[costField(projectId)]) return refused[costField(projectId)];
    return check?.costError && isShown(costField(projectId)) ? amountMessage(intl, check.costError) : undefined;
  };
  const reasonErrorOf = (projectId: string): string | undefined => {
    const check = checks.get(projectId);
    if (refused[reasonField(projectId)]) return refused[reasonField(projectId)];
    return check?.reasonError && isShown(reasonField(projectId))
      ? intl.formatMessage({ id: 'registry.approve.reasonRequired', defaultMessage: 'Give the reason for the new cost: it is kept with the registry.' })
      : undefined;
  };

  const focusFirstInvalid = () => {
    // After the errors render: the first field marked invalid gets the focus.
    window.setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
  };

  const approve = async () => {
    setAttempted(true);
    const hasErrors = [...checks.values()].some((check) => check.costError !== null || check.reasonError !== null) || totals === null;
    if (hasErrors) {
      focusFirstInvalid();
      return;
    }
    const input: RegistryApproveInput = {
      adjustments: registry.items.flatMap((item) => {
        const check = checks.get(item.projectId);
        if (!check || check.finalCostMinor === null) return [];
        return [{ projectId: item.projectId, finalCostMinor: check.finalCostMinor, reason: drafts[item.projectId]?.reason.trim() ?? '' }];
      }),
      comment: comment.trim() === '' ? null : comment.trim(),
    };
    setBusy('approve');
    try {
      await actions.approve(registry.id, input);
      navigate(`${paths.company.registryApproveSuccess(companyId)}?id=${encodeURIComponent(registry.id)}`);
    } catch (error) {
      setBusy(null);
      await showFailure(error);
    }
  };

  const showFailure = async (error: unknown) => {
    if (error instanceof FormError && Object.keys(error.fieldErrors).length > 0) {
      setRefused(error.fieldErrors);
      focusFirstInvalid();
      return;
    }
    await dialog.error(error instanceof Error && error.message !== '' ? { content: error.message } : {});
  };

  const giveBack = async () => {
    const returned = await askReturnComment(dialog, intl);
    if (returned === null) return;
    setBusy('return');
    try {
      await actions.return(registry.id, returned);
      navigate(`${paths.company.registry(companyId)}?returned=${encodeURIComponent(registry.id)}`);
    } catch (error) {
      setBusy(null);
      await dialog.error(error instanceof Error && error.message !== '' ? { content: error.message } : {});
    }
  };

  return (
    <form
      ref={formRef}
      className="registry-approve"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void approve();
      }}
    >
      <ol className="registry-adjust-list">
        {registry.items.map((item) => {
          const check = checks.get(item.projectId);
          const draft = drafts[item.projectId];
          const showsReason = (draft?.cost.trim() ?? '') !== '' || (draft?.reason ?? '') !== '';
          return (
            <li key={item.projectId} className="registry-adjust" data-testid={`registry-item-${item.projectId}`} data-adjusted={check?.finalCostMinor !== null ? '' : undefined}>
              <h3 className="registry-adjust__title">{item.name}</h3>
              <dl className="registry-adjust__facts">
                <dt>
                  <FormattedMessage id="registry.column.manager" defaultMessage="Project manager" />
                </dt>
                <dd>{item.projectManagerName ?? intl.formatMessage({ id: 'registry.unknownManager', defaultMessage: 'Not named' })}</dd>
                <dt>
                  <FormattedMessage id="registry.approve.calculatedCost" defaultMessage="Calculated cost" />
                </dt>
                <dd data-field="estimatedCosts">
                  <MoneyText amountMinor={item.estimatedCostsMinor} currency={item.currency} />
                </dd>
                <dt>
                  <FormattedMessage id="registry.column.effect" defaultMessage="Effect over 12 months" />
                </dt>
                <dd data-field="effect">
                  <MoneyText amountMinor={item.expectedEffect12mMinor} currency={item.currency} />
                </dd>
                <dt>
                  <FormattedMessage id="registry.column.remuneration" defaultMessage="Remuneration" />
                </dt>
                <dd data-field="remuneration">
                  <MoneyText amountMinor={item.remunerationMinor} currency={item.currency} />
                </dd>
              </dl>
              <ControlTestId testId={`registry-final-cost-${item.projectId}`}>
                <TextField
                  name={`finalCost-${item.projectId}`}
                  label={intl.formatMessage({ id: 'registry.approve.finalCost', defaultMessage: 'Final cost, {currency}' }, { currency: item.currency })}
                  value={draft?.cost ?? ''}
                  onChange={(value) => change(item.projectId, 'cost', value)}
                  onBlur={() => visit(costField(item.projectId))}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder={minorToAmountText(item.estimatedCostsMinor, separator)}
                  tip={intl.formatMessage({ id: 'registry.approve.finalCostTip', defaultMessage: 'Leave it empty to keep the calculated cost.' })}
                  error={costErrorOf(item.projectId)}
                  disabled={busy !== null}
                />
              </ControlTestId>
              {showsReason && (
                <ControlTestId testId={`registry-reason-${item.projectId}`}>
                  <Textarea
                    name={`reason-${item.projectId}`}
                    label={intl.formatMessage({ id: 'registry.approve.reason', defaultMessage: 'Reason for the new cost' })}
                    value={draft?.reason ?? ''}
                    onChange={(value) => change(item.projectId, 'reason', value)}
                    onBlur={() => visit(reasonField(item.projectId))}
                    required={check?.finalCostMinor !== null}
                    maxLength={REGISTRY_REASON_MAX}
                    error={reasonErrorOf(item.projectId)}
                    disabled={busy !== null}
                  />
                </ControlTestId>
              )}
            </li>
          );
        })}
      </ol>

      <section className="registry-section" aria-labelledby="registry-approve-totals" data-testid="registry-totals" aria-live="polite">
        <h2 className="registry-section__title" id="registry-approve-totals">
          <FormattedMessage id="registry.approve.totalsTitle" defaultMessage="Totals: estimated and final" />
        </h2>
        <p className="registry-section__lead" data-adjusted={adjustedCount}>
          <FormattedMessage
            id="registry.approve.adjustedCount"
            defaultMessage="{count, plural, =0 {No cost adjusted: the calculated costs stand.} one {# project with an adjusted cost.} other {# projects with an adjusted cost.}}"
            values={{ count: adjustedCount }}
          />
        </p>
        {totals === null ? (
          <p className="registry-note registry-note--error" role="alert">
            <FormattedMessage id="registry.approve.totalTooLarge" defaultMessage="The total is too large: check the final costs." />
          </p>
        ) : (
          <TotalsTable totals={totals} showFinal caption={<FormattedMessage id="registry.approve.totalsCaption" defaultMessage="Totals by currency" />} />
        )}
      </section>

      <Textarea
        name="comment"
        label={intl.formatMessage({ id: 'registry.approve.comment', defaultMessage: 'Comment (optional)' })}
        value={comment}
        onChange={(value) => {
          setComment(value);
          clearRefused('comment');
        }}
        maxLength={REGISTRY_COMMENT_MAX}
        error={refused.comment}
        disabled={busy !== null}
      />
      <p className="registry-note">
        <FormattedMessage
          id="registry.approve.final"
          defaultMessage="Once approved, the registry cannot be changed: its final costs and totals become the figures of record."
        />
      </p>
      <div className="registry-actions">
        <Button type="submit" loading={busy === 'approve'} disabled={busy === 'return'} data-testid="registry-approve">
          <FormattedMessage id="registry.approve.approve" defaultMessage="Approve" />
        </Button>
        <Button variant="danger" onClick={() => void giveBack()} loading={busy === 'return'} disabled={busy === 'approve'} data-testid="registry-return">
          <FormattedMessage id="registry.approve.return" defaultMessage="Return" />
        </Button>
      </div>
    </form>
  );
}
