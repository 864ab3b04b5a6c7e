// Russian taxpayer number (INN) checksums, as published by the Federal Tax Service:
// 10 digits for a legal entity (one check digit), 12 for a person or an individual
// entrepreneur (two check digits).

const W10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const W11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const W12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  const sum = weights.reduce((acc, w, i) => acc + w * (digits[i] ?? 0), 0);
  return (sum % 11) % 10;
}

export function isValidInn(value: string): boolean {
  if (!/^\d{10}$|^\d{12}$/.test(value)) return false;
  const d = [...value].map(Number);
  if (d.length === 10) return checkDigit(d, W10) === d[9];
  return checkDigit(d, W11) === d[10] && checkDigit(d, W12) === d[11];
}

export function isValidLegalEntityInn(value: string): boolean {
  return value.length === 10 && isValidInn(value);
}

export function isValidEntrepreneurInn(value: string): boolean {
  return value.length === 12 && isValidInn(value);
}

/** KPP: 9 characters; digits, with letters A-Z allowed in positions 5-6. */
export function isValidKpp(value: string): boolean {
  return /^\d{4}[\dA-Z]{2}\d{3}$/.test(value);
}
