import { divIcon, type Marker as MarcadorLeaflet } from 'leaflet';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { MapContainer, Marker, Popup, TileLayer, ZoomControl } from 'react-leaflet';
import type { Local } from '../api/referencia';

const ZOOM = 16;

// Leaflet's default marker is a PNG found through a CSS path that bundlers rewrite; a pin
// drawn in CSS always shows, with or without tiles.
const PINO = divIcon({
  className: 'localizacao__marcador',
  html: '<span class="localizacao__pino" aria-hidden="true"></span>',
  iconSize: [28, 40],
  iconAnchor: [14, 37],
  popupAnchor: [0, -34],
});

/** Opens the place's balloon once the marker is on the map, in Portuguese. */
function AbrirBalao({ marcador }: { marcador: RefObject<MarcadorLeaflet | null> }) {
  useEffect(() => {
    const m = marcador.current;
    if (!m) return;
    m.openPopup();
    m.getPopup()
      ?.getElement()
      ?.querySelector('.leaflet-popup-close-button')
      ?.setAttribute('aria-label', 'Fechar balão');
  }, [marcador]);
  return null;
}

export const linkDoOpenStreetMap = (l: Local) =>
  `https://www.openstreetmap.org/?mlat=${l.latitude}&mlon=${l.longitude}#map=${ZOOM}/${l.latitude}/${l.longitude}`;

/**
 * The pickup place on a Leaflet map. The tiles come from the deployment's tile server; when they
 * cannot load (no network, server down) the marker still stands on a blank map and a short
 * note says so: the address and the link beside the map do not depend on it.
 */
export function MapaDoLocal({
  local,
  tiles,
}: {
  local: Local;
  tiles: { url: string; atribuicao: string } | null;
}) {
  const [algumTileCarregou, setAlgumTileCarregou] = useState(false);
  const [algumTileFalhou, setAlgumTileFalhou] = useState(false);
  const marcador = useRef<MarcadorLeaflet | null>(null);
  const posicao: [number, number] = [local.latitude, local.longitude];
  // One failed tile among loaded ones is a hiccup; none loaded is a map without its background.
  const semMapa = tiles === null || (algumTileFalhou && !algumTileCarregou);

  return (
    <div>
      {semMapa && (
        <p className="localizacao__nota" role="status">
          Mapa indisponível no momento; o endereço e o marcador continuam abaixo.
        </p>
      )}
      <div role="region" aria-label={`Mapa: ${local.nome}`}>
        <MapContainer
          className="localizacao__mapa"
          center={posicao}
          zoom={ZOOM}
          zoomControl={false}
          scrollWheelZoom={false}
        >
          {tiles && (
            <TileLayer
              url={tiles.url}
              attribution={tiles.atribuicao}
              eventHandlers={{
                tileload: () => setAlgumTileCarregou(true),
                tileerror: () => setAlgumTileFalhou(true),
              }}
            />
          )}
          <ZoomControl position="topleft" zoomInTitle="Aproximar" zoomOutTitle="Afastar" />
          <Marker
            ref={marcador}
            position={posicao}
            icon={PINO}
            title={`${local.nome}: ${local.endereco}`}
          >
            <Popup>
              <span className="localizacao__popup">
                <strong>{local.nome}</strong>
                {local.endereco}, {local.bairro}
                <br />
                {local.cidade} - {local.uf}
              </span>
            </Popup>
          </Marker>
          <AbrirBalao marcador={marcador} />
        </MapContainer>
      </div>
    </div>
  );
}
