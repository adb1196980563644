import { startFrame } from '../frame';

startFrame('expiry-month');
