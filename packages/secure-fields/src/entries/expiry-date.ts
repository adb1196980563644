import { startFrame } from '../frame';

startFrame('expiry-date');
