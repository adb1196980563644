import { startFrame } from '../frame';

startFrame('expiry-year');
