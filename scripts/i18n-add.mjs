#!/usr/bin/env node
// Merges messages into locales/en.json and locales/ru.json, keeping keys sorted.
// Usage: node scripts/i18n-add.mjs file.json   where file.json is { "en": { id: text }, "ru": { id: text } }
// Refuses a batch whose en and ru ids differ, so the catalogues stay in step.
import { readFileSync, writeFileSync, renameSync } from 'node:fs';

const batch = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const en = Object.keys(batch.en ?? {}).sort();
const ru = Object.keys(batch.ru ?? {}).sort();
if (en.join('\n') !== ru.join('\n')) {
  console.error('en and ru hold different ids:', en.filter((k) => !ru.includes(k)), ru.filter((k) => !en.includes(k)));
  process.exit(1);
}
for (const lang of ['en', 'ru']) {
  const file = new URL(`../locales/${lang}.json`, import.meta.url);
  let current;
  try { current = JSON.parse(readFileSync(file, 'utf8')); } catch { current = {}; }
  const merged = { ...current, ...batch[lang] };
  const sorted = Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]]));
  const tmp = new URL(`../locales/.${lang}.json.tmp`, import.meta.url);
  writeFileSync(tmp, JSON.stringify(sorted, null, 2) + '\n');
  renameSync(tmp, file);
}
console.log(`added ${en.length} messages`);
