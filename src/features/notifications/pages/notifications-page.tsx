// Built by the notifications part of issue 11 (the bell's page).
export default function NotificationsPage() {
  return null;
}
