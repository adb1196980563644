export { createRegistry, hasBearer, metricsAccess, registerObservability, type ObservabilityOptions } from './http-metrics';
export { currentRequestId, REQUEST_ID_HEADER, requestIdFrom, requestIdHeaders, runWithRequestId } from './request-context';
export { Counter, Gauge, Histogram, type Registry } from 'prom-client';
export { defaultLogFormat, logDestination, LOG_FORMATS, type LogFormat } from './log-format';
