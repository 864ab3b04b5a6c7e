// Built by the review-list part of issue 11.
export default function SuggestionsPage() {
  return null;
}
