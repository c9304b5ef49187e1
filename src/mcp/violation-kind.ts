/** Pure: the category of an audit event that `hestai://audit` reports, by the words in its name (null: routine). */
export function violationKind(event: string): 'bypass' | 'acknowledgment' | 'takeover' | 'reset' | 'violation' | null {
  const e = event.toLowerCase().replace(/[^a-z]/g, '');
  if (e.includes('bypass')) return 'bypass';
  if (e.includes('violat') || e.includes('forced') || e.startsWith('security')) return 'violation';
  if (e.includes('takeover') || e.includes('takenover') || e.includes('tookover')) return 'takeover';
  if (e.includes('reset')) return 'reset';
  if (e.includes('acknowledg') || /(^|[^a-z])ack([^a-z]|$)/i.test(event)) return 'acknowledgment';
  return null;
}
