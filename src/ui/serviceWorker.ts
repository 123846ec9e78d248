import { isLocalHost, serviceWorkerCheck } from '../domain/serviceWorker';

const WORKER_URL = '/service-worker.js';

/** Registers the worker; failures are logged only (spec 000 §8). */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    if (isLocalHost(window.location.hostname)) {
      const response = await fetch(WORKER_URL, { headers: { 'Service-Worker': 'script' } });
      if (serviceWorkerCheck({ status: response.status, contentType: response.headers.get('content-type') }) === 'unregister-and-reload') {
        // Reload only when a stale worker was actually removed, or this would loop.
        const registrations = await navigator.serviceWorker.getRegistrations();
        await Promise.all(registrations.map((r) => r.unregister()));
        if (registrations.length > 0) window.location.reload();
        return;
      }
    }
    await navigator.serviceWorker.register(WORKER_URL);
  } catch (error) {
    console.warn('Service worker registration failed', error);
  }
}
