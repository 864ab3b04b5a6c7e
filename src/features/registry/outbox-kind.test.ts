import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import type { OutboxRow } from '../../lib/db/database';
import { registryRow } from '../../../tests/fixtures/rows';
import { registryApproveOutboxKind, registryOutboxKinds, registryReturnOutboxKind, registrySendOutboxKind } from './outbox-kind';
import { REGISTRY_APPROVE_KIND, REGISTRY_RETURN_KIND, REGISTRY_SEND_KIND, storeAnsweredRegistry } from './store';

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const REG = '00000000-0000-4000-8000-0000000000b1';

function row(kind: string, path: string): OutboxRow {
  return {
    seq: 1,
    id: 'k1',
    ownerUserId: 'u1',
    kind,
    method: 'POST',
    path,
    body: {},
    fileIds: [],
    entityKey: `registries:${REG}`,
    status: 'conflict',
    attempts: 1,
    nextAttemptAt: 0,
    lastError: { status: 409, message: 'Already decided' },
    createdAt: 0,
    updatedAt: 0,
  };
}

const sendRow = row(REGISTRY_SEND_KIND, `/api/v1/companies/${COMPANY}/registry/send`);
const approveRow = row(REGISTRY_APPROVE_KIND, `/api/v1/companies/${COMPANY}/registry/${REG}/approve`);
const returnRow = row(REGISTRY_RETURN_KIND, `/api/v1/companies/${COMPANY}/registry/${REG}/return`);

describe('the registry outbox kinds', () => {
  it('are the send, the approval and the return, pushable, each storing the answered registry, with labels both catalogues hold', async () => {
    expect(registryOutboxKinds.map((kind) => kind.kind)).toEqual(['registry.send', 'registry.approve', 'registry.return']);
    for (const kind of registryOutboxKinds) {
      expect(kind.pushable).toBe(true);
      expect(await kind.loadSuccessHandler()).toBe(storeAnsweredRegistry);
      expect(en).toHaveProperty([kind.label.id]);
      expect(ru).toHaveProperty([kind.label.id]);
      expect(en).toHaveProperty([kind.viewLabel.id ?? '']);
    }
    expect(en['outbox.kind.registrySend']).toBe('Send the registry');
  });

  it('name the registry by its number once the server numbered it, and say nothing of a number before', () => {
    expect(registryApproveOutboxKind.labelValues(approveRow, registryRow(REG, { number: 12 }))).toEqual({ number: '12', hasNumber: 'yes' });
    expect(registryReturnOutboxKind.labelValues(returnRow, registryRow(REG, { number: 3 }))).toEqual({ number: '3', hasNumber: 'yes' });
    // Not numbered yet (a send still on this device), not on the device, or damaged: no number.
    expect(registryApproveOutboxKind.labelValues(approveRow, registryRow(REG, { number: 0 }))).toEqual({ number: '', hasNumber: 'no' });
    expect(registryApproveOutboxKind.labelValues(approveRow)).toEqual({ number: '', hasNumber: 'no' });
    expect(registryReturnOutboxKind.labelValues(returnRow, { number: '3' })).toEqual({ number: '', hasNumber: 'no' });
  });

  it('open the registry page for a send and the review of the registry for a decision; nothing to edit', () => {
    expect(registrySendOutboxKind.viewHref(sendRow)).toBe(`/companies/${COMPANY}/registry`);
    expect(registryApproveOutboxKind.viewHref(approveRow)).toBe(`/companies/${COMPANY}/registry-approve?id=${REG}`);
    expect(registryReturnOutboxKind.viewHref(returnRow)).toBe(`/companies/${COMPANY}/registry-approve?id=${REG}`);
    for (const kind of registryOutboxKinds) expect(kind.editHref()).toBeNull();
    // A path this app never writes opens nothing.
    expect(registryApproveOutboxKind.viewHref({ ...approveRow, path: '/api/v1/elsewhere' })).toBeNull();
    expect(registrySendOutboxKind.viewHref({ ...sendRow, entityKey: 'projects:p1' })).toBeNull();
  });
});
