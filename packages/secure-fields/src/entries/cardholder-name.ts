import { startFrame } from '../frame';

startFrame('cardholder-name');
