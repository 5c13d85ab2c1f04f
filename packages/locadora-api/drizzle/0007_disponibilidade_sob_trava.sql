-- Free vehicles of a category for a period (decision 053): active vehicles of the category, minus
-- its reservations (reservada, retirada) overlapping the period widened by the turnaround gap,
-- minus its vehicles blocked by maintenance during the period.
--
-- With `p_travar`, the category's row is locked first (until the transaction ends) and the counts
-- are read after the lock is granted. A VOLATILE PL/pgSQL function takes a fresh snapshot for
-- each statement it runs, so the counts see every booking committed while this one waited for
-- the lock; a plain subquery of the calling statement would read the snapshot taken before the
-- wait. A booking can then lock, count and insert in one statement, holding the lock only while
-- PostgreSQL runs it, never across a round trip to the application.
--
-- Both overlap predicates are written exactly as the GiST index expressions
-- (`locacoes_periodo_ativo`, partial on the holding statuses, and `manutencoes_bloqueio`).
CREATE FUNCTION "locadora"."disponibilidade"(
  p_categoria integer,
  p_inicio timestamptz,
  p_fim timestamptz,
  p_intervalo interval,
  p_ignorar integer DEFAULT NULL,
  p_travar boolean DEFAULT false
) RETURNS TABLE (frota integer, reservadas integer, em_manutencao integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF p_travar THEN
    PERFORM 1 FROM locadora.categorias c WHERE c.id = p_categoria FOR UPDATE;
  END IF;
  RETURN QUERY SELECT
    (SELECT count(*)::int
       FROM locadora.veiculos v
       JOIN locadora.modelos m ON m.id = v.modelo_id
      WHERE m.categoria_id = p_categoria AND v.ativo),
    (SELECT count(*)::int
       FROM locadora.locacoes l
      WHERE l.status IN ('reservada', 'retirada')
        AND tstzrange(l.retirada_prevista, l.entrega_prevista, '[)')
            && tstzrange(p_inicio - p_intervalo, p_fim + p_intervalo, '[)')
        AND l.categoria_id = p_categoria
        AND (p_ignorar IS NULL OR l.id <> p_ignorar)),
    (SELECT count(DISTINCT mt.veiculo_id)::int
       FROM locadora.manutencoes mt
       JOIN locadora.veiculos v ON v.id = mt.veiculo_id
       JOIN locadora.modelos m ON m.id = v.modelo_id
      WHERE tstzrange(mt.inicio, coalesce(mt.encerrada_em, mt.previsao_termino), '[)')
            && tstzrange(p_inicio, p_fim, '[)')
        AND m.categoria_id = p_categoria AND v.ativo);
END
$$;
