/**
 * Spec 000 §9: a service worker file is fetched at start-up; on a local host, a 404 or a response
 * that is not JavaScript means a stale worker from another app on the same port: unregister it
 * and reload the page.
 */
type ServiceWorkerCheck = 'register' | 'unregister-and-reload';

export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

export function serviceWorkerCheck({ status, contentType }: { status: number; contentType: string | null | undefined }): ServiceWorkerCheck {
  if (status === 404) return 'unregister-and-reload';
  if (!contentType || !contentType.toLowerCase().includes('javascript')) return 'unregister-and-reload';
  return 'register';
}
