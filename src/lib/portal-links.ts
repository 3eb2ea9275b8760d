/** The address of a one-time portal link (src/domain/portal-invites.ts), served by src/portal/pages/invite.ts. */
export function portalInviteLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/app/invite/${token}`;
}
