// The registry of DESIGN.md "State machines" (issue 13): approved projects collect in the company's open
// registry; the direction manager or the financial director sends it to the owner, who approves it (adjusting
// the final cost of any project first, with a reason that is kept) or returns it with a comment. One transition
// table, read by the main-service (which enforces it) and the client (which offers only what is allowed), and the
// totals of a registry, in integer minor units per currency. Pure, no I/O.
//
// What it guarantees:
// - A registry moves only along a row of REGISTRY_TRANSITIONS, by one of the row's roles, with the row's required
//   input; refusals come in a fixed order, the order the server answers in: `forbidden`, then `wrongState` (for an
//   offline decision, "the world changed"), then the input (`commentRequired`, `empty`: nothing to send).
// - OPEN is the company's one collecting registry; SENT and APPROVED are final for its projects' figures only once
//   APPROVED (immutable from then on); RETURNED gives its projects back to the open registry.
// - `registryTotals` sums per currency (a company may run projects in RUB, USD and AUD; sums of different
//   currencies are never added), in BigInt, so no sum overflows or rounds; the final cost is the owner's adjusted
//   cost where there is one, else the calculated cost.
// - `ratioBasisPoints` is floor(numerator x 10000 / denominator) in BigInt (efficiency = effect / costs, the share
//   of EBITDA), null for a denominator of 0, held at Number.MAX_SAFE_INTEGER beyond it (a ratio no real pair of
//   figures reaches: 900 billion times).

import { type Infer, array, enums, integer, nullable, object, optional, refine, size, string, type } from 'superstruct';
import type { CompanyRole } from './auth';
import { BASIS_POINTS_PER_WHOLE, MinorAmount } from './money';
import { type Roles, hasAnyRole } from './permissions';
import { CURRENCIES, type Currency, Uuid } from './suggestion';
import { areDistinctIds, multilineText } from './validation';

/**
 * OPEN: collecting the approved projects not yet sent (one per company).
 * SENT: with the owner, waiting on their decision.
 * APPROVED: approved by the owner; its figures (final costs included) are of record and never change.
 * RETURNED: returned by the owner with a comment; its projects went back to the open registry.
 */
export const REGISTRY_STATUSES = ['OPEN', 'SENT', 'APPROVED', 'RETURNED'] as const;
export type RegistryStatus = (typeof REGISTRY_STATUSES)[number];

export const REGISTRY_ACTIONS = ['SEND', 'APPROVE', 'RETURN'] as const;
export type RegistryAction = (typeof REGISTRY_ACTIONS)[number];

/** What an action needs: a comment (RETURN), at least one project (SEND). */
export type RegistryRequirement = 'comment' | 'projects';

export interface RegistryTransitionRule {
  action: RegistryAction;
  from: RegistryStatus;
  to: RegistryStatus;
  who: readonly CompanyRole[];
  requires: readonly RegistryRequirement[];
}

/** Every allowed move of a registry. Each action appears exactly once, so an action names its move. */
export const REGISTRY_TRANSITIONS: readonly RegistryTransitionRule[] = [
  { action: 'SEND', from: 'OPEN', to: 'SENT', who: ['DIRECTION_MANAGER', 'FINANCIAL_DIRECTOR'], requires: ['projects'] },
  { action: 'APPROVE', from: 'SENT', to: 'APPROVED', who: ['OWNER'], requires: [] },
  { action: 'RETURN', from: 'SENT', to: 'RETURNED', who: ['OWNER'], requires: ['comment'] },
];

export type RegistryTransitionRefusal = 'forbidden' | 'wrongState' | 'commentRequired' | 'empty';
export type RegistryTransitionResult = { ok: true; from: RegistryStatus; to: RegistryStatus } | { ok: false; code: RegistryTransitionRefusal };

/** The registry as the rules see it. */
export interface RegistryView {
  status: RegistryStatus;
  /** How many projects it holds. */
  projectCount: number;
}

export interface RegistryActionFields {
  comment?: string | null;
}

function ruleOf(action: RegistryAction): RegistryTransitionRule {
  const rule = REGISTRY_TRANSITIONS.find((candidate) => candidate.action === action);
  // REGISTRY_TRANSITIONS names every action of REGISTRY_ACTIONS; the test "names every action once" holds it so.
  if (!rule) throw new Error(`No transition for registry action ${action}`);
  return rule;
}

function hasComment(fields: RegistryActionFields): boolean {
  return typeof fields.comment === 'string' && fields.comment.trim().length > 0;
}

/** Whether `action` needs a comment (returning does). */
export function registryActionRequiresComment(action: RegistryAction): boolean {
  return ruleOf(action).requires.includes('comment');
}

/** Whether `roles` may take `action` on `registry` with `input`, and where it takes it; refusals in the header's order. */
export function registryTransition(action: RegistryAction, registry: RegistryView, roles: Roles, input: RegistryActionFields = {}): RegistryTransitionResult {
  const rule = ruleOf(action);
  if (!hasAnyRole(roles, rule.who)) return { ok: false, code: 'forbidden' };
  if (rule.from !== registry.status) return { ok: false, code: 'wrongState' };
  if (rule.requires.includes('comment') && !hasComment(input)) return { ok: false, code: 'commentRequired' };
  if (rule.requires.includes('projects') && registry.projectCount < 1) return { ok: false, code: 'empty' };
  return { ok: true, from: rule.from, to: rule.to };
}

/** The actions `roles` may take on `registry` now (given the input each needs), in table order. */
export function availableRegistryActions(registry: RegistryView, roles: Roles): RegistryAction[] {
  return REGISTRY_TRANSITIONS.filter((rule) => rule.from === registry.status && hasAnyRole(roles, rule.who))
    .filter((rule) => !rule.requires.includes('projects') || registry.projectCount > 0)
    .map((rule) => rule.action);
}

// ---------------------------------------------------------------------------------------------------
// Totals.

/** A project's figures as a registry holds them (a snapshot taken when it was sent). */
export interface RegistryItemFigures {
  projectId: string;
  currency: Currency;
  /** The calculated (estimated) costs. */
  estimatedCostsMinor: number;
  expectedEffect12mMinor: number;
  remunerationMinor: number;
  /** The owner's adjusted final cost; null: the estimated costs stand. */
  finalCostMinor: number | null;
}

export interface CurrencyTotals {
  currency: Currency;
  projects: number;
  estimatedCostsMinor: number;
  /** The final costs: adjusted where the owner adjusted, estimated elsewhere. */
  finalCostsMinor: number;
  expectedEffect12mMinor: number;
  remunerationMinor: number;
}

/** The final cost of one item: the owner's adjustment where there is one. */
export function finalCostOf(item: Pick<RegistryItemFigures, 'estimatedCostsMinor' | 'finalCostMinor'>): number {
  return item.finalCostMinor ?? item.estimatedCostsMinor;
}

/**
 * The totals of `items` per currency, in CURRENCIES order, only currencies that occur. Throws RangeError when a
 * sum passes Number.MAX_SAFE_INTEGER (no registry of real projects comes near: 90 trillion roubles).
 */
export function registryTotals(items: readonly RegistryItemFigures[]): CurrencyTotals[] {
  const sums = new Map<Currency, { projects: number; estimated: bigint; final: bigint; effect: bigint; remuneration: bigint }>();
  for (const item of items) {
    const sum = sums.get(item.currency) ?? { projects: 0, estimated: 0n, final: 0n, effect: 0n, remuneration: 0n };
    sum.projects += 1;
    sum.estimated += BigInt(item.estimatedCostsMinor);
    sum.final += BigInt(finalCostOf(item));
    sum.effect += BigInt(item.expectedEffect12mMinor);
    sum.remuneration += BigInt(item.remunerationMinor);
    sums.set(item.currency, sum);
  }
  const safe = (value: bigint): number => {
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`a registry total beyond 2^53 minor units: ${value}`);
    return Number(value);
  };
  return CURRENCIES.flatMap((currency) => {
    const sum = sums.get(currency);
    if (!sum) return [];
    return [
      {
        currency,
        projects: sum.projects,
        estimatedCostsMinor: safe(sum.estimated),
        finalCostsMinor: safe(sum.final),
        expectedEffect12mMinor: safe(sum.effect),
        remunerationMinor: safe(sum.remuneration),
      },
    ];
  });
}

/**
 * floor(numerator x 10000 / denominator): a ratio in basis points (efficiency = effect / costs, 25,000 for an
 * effect of 2.5 times the costs; the share of EBITDA). Null when the denominator is 0 (no costs: no ratio).
 * Both operands are minor amounts (safe integers >= 0); the product is taken in BigInt, so it is exact.
 */
export function ratioBasisPoints(numeratorMinor: number, denominatorMinor: number): number | null {
  if (!Number.isSafeInteger(numeratorMinor) || numeratorMinor < 0) throw new RangeError(`not an amount in minor units: ${numeratorMinor}`);
  if (!Number.isSafeInteger(denominatorMinor) || denominatorMinor < 0) throw new RangeError(`not an amount in minor units: ${denominatorMinor}`);
  if (denominatorMinor === 0) return null;
  const ratio = (BigInt(numeratorMinor) * BigInt(BASIS_POINTS_PER_WHOLE)) / BigInt(denominatorMinor);
  return ratio > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(ratio);
}

// ---------------------------------------------------------------------------------------------------
// Bodies.

export const REGISTRY_COMMENT_MAX = 2000;
export const REGISTRY_REASON_MAX = 1000;
/** How many projects' costs one approval may adjust (the registry's size bounds it anyway). */
export const REGISTRY_MAX_ADJUSTMENTS = 1000;

/** The owner's adjusted final cost of one project, with the reason kept beside it. */
export const CostAdjustment = object({
  projectId: Uuid,
  finalCostMinor: MinorAmount,
  reason: refine(size(multilineText(), 1, REGISTRY_REASON_MAX), 'required', (value) => value.trim().length > 0),
});
export type CostAdjustment = Infer<typeof CostAdjustment>;

/**
 * Body of `POST /companies/{companyId}/registry/{registryId}/approve`: the adjustments (each project at most once)
 * and an optional comment.
 */
export const RegistryApproveInput = object({
  adjustments: refine(
    size(array(CostAdjustment), 0, REGISTRY_MAX_ADJUSTMENTS),
    'duplicate',
    (rows) => areDistinctIds(rows.map((row) => row.projectId)),
  ),
  comment: optional(nullable(size(multilineText(), 0, REGISTRY_COMMENT_MAX))),
});
export type RegistryApproveInput = Infer<typeof RegistryApproveInput>;

/** Body of the owner's return: the comment is required. */
export const RegistryReturnInput = object({
  comment: refine(size(multilineText(), 1, REGISTRY_COMMENT_MAX), 'required', (value) => value.trim().length > 0),
});
export type RegistryReturnInput = Infer<typeof RegistryReturnInput>;

/** An entry of a registry's audit trail. */
export const RegistryHistoryEntry = type({
  at: string(),
  action: enums(REGISTRY_ACTIONS),
  fromStatus: enums(REGISTRY_STATUSES),
  toStatus: enums(REGISTRY_STATUSES),
  byUserId: nullable(string()),
  byName: nullable(string()),
  comment: nullable(string()),
});
export type RegistryHistoryEntry = Infer<typeof RegistryHistoryEntry>;

// ---------------------------------------------------------------------------------------------------
// The registry as the API and the pull carry it, and the send body.

/** The project states that enter the open registry (approved by the direction manager; completed ones stay in). */
export const REGISTRY_PROJECT_STATUSES = ['APPROVED', 'COMPLETED'] as const;

/** Whether a project belongs to the company's open registry: approved (or since completed) and not yet sent. */
export function isInOpenRegistry(project: { status: string; registryId: string | null }): boolean {
  return project.registryId === null && (REGISTRY_PROJECT_STATUSES as readonly string[]).includes(project.status);
}

/** How many projects one send may carry. */
export const REGISTRY_MAX_PROJECTS = 1000;

/**
 * One project of a sent registry: its figures as they stood when it was sent (a snapshot: later changes of the
 * project do not move them), and the owner's adjusted final cost with its reason once approved.
 */
export const RegistryItem = type({
  projectId: string(),
  name: string(),
  departmentId: nullable(string()),
  projectManagerName: nullable(string()),
  currency: enums(CURRENCIES),
  estimatedCostsMinor: integer(),
  expectedEffect12mMinor: integer(),
  remunerationMinor: integer(),
  /** The owner's adjusted final cost; null: the estimated costs stand. */
  finalCostMinor: nullable(integer()),
  adjustmentReason: nullable(string()),
});
export type RegistryItem = Infer<typeof RegistryItem>;

export const CurrencyTotalsRow = type({
  currency: enums(CURRENCIES),
  projects: integer(),
  estimatedCostsMinor: integer(),
  finalCostsMinor: integer(),
  expectedEffect12mMinor: integer(),
  remunerationMinor: integer(),
});

/**
 * A sent registry as every API answer and every pull row carries it (timestamps ISO strings, money in minor units
 * per item's currency). `number` counts the company's registries from 1. `totals` are `registryTotals(items)`;
 * once APPROVED they are the figures of record and nothing of the registry changes again.
 */
export const Registry = type({
  id: string(),
  companyId: string(),
  number: integer(),
  status: enums(REGISTRY_STATUSES),
  items: array(RegistryItem),
  totals: array(CurrencyTotalsRow),
  sentByUserId: nullable(string()),
  sentByName: string(),
  sentAt: string(),
  decidedByUserId: nullable(string()),
  decidedByName: nullable(string()),
  decidedAt: nullable(string()),
  /** The owner's comment: required when returned, optional when approved. */
  comment: nullable(string()),
  history: array(RegistryHistoryEntry),
  createdAt: string(),
  updatedAt: string(),
});
export type Registry = Infer<typeof Registry>;

/**
 * Body of `POST /companies/{companyId}/registry/send`: the new registry's id (made by the device, so an offline
 * send replays as the same registry) and the projects of the open registry the sender saw and sends. A project
 * sent meanwhile in another registry, or no longer approved, is a 409 naming that registry (never a silent
 * partial send); projects approved since stay in the open registry.
 */
export const RegistrySendInput = object({
  id: Uuid,
  projectIds: refine(
    size(array(Uuid), 1, REGISTRY_MAX_PROJECTS),
    'duplicate',
    (ids) => areDistinctIds(ids),
  ),
});
export type RegistrySendInput = Infer<typeof RegistrySendInput>;
