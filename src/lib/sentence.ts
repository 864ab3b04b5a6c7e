// Dates inside sentences. A formatted date can end in a point of its own: Russian abbreviates months
// ("28 нояб.") and years ("2026 г."). Put before a sentence's full stop it reads "до 28 нояб.."; typography has
// the abbreviation's point close the sentence as well. The date itself stays as Intl formats it.

/** `sentence` without the full stop that follows `date` where the date ends in a point already. */
export function withoutStopAfterDate(sentence: string, date: string): string {
  return date.endsWith('.') ? sentence.replaceAll(`${date}.`, date) : sentence;
}
