/**
 * The service's price lists in words. An answer names the list it was billed on in
 * `X-Service-Service` (`x`, `ai_search`, …: docs/service.md, "Billing"); Spend's chart, its
 * learned rates and History's cost name it this way. A list this version does not know is
 * shown as the service sent it.
 */
const serviceNames: Record<string, string> = {
  ai_search: 'AI search',
  ai_links_web: 'AI web links',
  ai_links_x: 'AI X links',
  web_search: 'Web search',
  web_crawl: 'Page text',
  x: 'X searches and lookups',
  forecast: 'Forecasts',
};

export function serviceName(service: string): string {
  return serviceNames[service] ?? (service.trim() || 'Service not named');
}
